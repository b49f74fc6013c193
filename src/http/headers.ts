/**
 * How many times a request gave the header `name` (lower case). Node keeps the first of two
 * `Authorization` headers and drops the rest unseen, and joins two `Idempotency-Key` headers
 * into one value: either way a request that gives one twice is read as one it did not send.
 */
export function timesGiven(raw: readonly string[], name: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.length === name.length && raw[i]?.toLowerCase() === name) n++;
  return n;
}
