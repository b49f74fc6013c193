// One plural rule for everything the desk says: "1 unit", "2 units", "0 units".

const IRREGULAR: Record<string, string> = { entry: 'entries', reply: 'replies', activity: 'activities', person: 'people' };

export function plural(n: number, word: string, many?: string): string {
  return `${n} ${n === 1 ? word : (many ?? IRREGULAR[word] ?? `${word}s`)}`;
}
