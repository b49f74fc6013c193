// Small text helpers every layer words things with.

const IRREGULAR: Record<string, string> = {
  entry: 'entries',
  reply: 'replies',
  activity: 'activities',
  person: 'people',
};

/** The one plural rule for everything the desk says: "1 unit", "2 units", "3 entries". */
export function plural(n: number, word: string, many?: string): string {
  return `${n} ${n === 1 ? word : (many ?? IRREGULAR[word] ?? `${word}s`)}`;
}

/**
 * A stored JSON column read as an object. Text that is not JSON, or JSON that is not an
 * object (never written by Desk, but possible by hand), reads as {}.
 */
export function storedObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
