// Small text helpers every layer words things with.

/** "1 day", "3 days"; `many` for words that do not just take an s. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
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
