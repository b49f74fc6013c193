import { parse } from 'node:querystring';

/**
 * A repeated query parameter (`?limit=3&limit=7`) is read as its first value: the contract
 * brings a bad limit into range and restarts on a bad cursor "with no error", so a repeat is
 * never a 400 either (P-query-1).
 */
export function firstValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  // Every pair is read: by default the parser stops at the thousandth, and a filter or a limit
  // after it would be dropped without a word. The request line's own limit bounds the count.
  for (const [k, v] of Object.entries(parse(text, undefined, undefined, { maxKeys: 0 }))) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[k] = first;
  }
  return out;
}
