import { notFound } from './errors.ts';

// How loosely-typed request values become the numbers the rules use.

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
/** Ids are int4 on PostgreSQL; anything larger names no row (and must never reach the query). */
export const MAX_ID = 2_147_483_647;

/**
 * A number as a person or a JSON encoder writes one. `Number()` alone would also read `0x10`,
 * `0b11` and `0o7`, which no client means as a count of rows (P-query-2).
 */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** D18: non-numbers mean the default; fractions are truncated; the result is brought into 1-200. */
export function clampLimit(raw: unknown): number {
  if (raw === undefined || raw === null) return DEFAULT_LIMIT;
  const text = typeof raw === 'number' ? null : String(raw).trim();
  if (text !== null && !DECIMAL.test(text)) return DEFAULT_LIMIT;
  // Without an exponent, the whole part as written: Number() would round `1.9999999999999999`
  // up to 2 before it could be truncated. `1e309` is a number too large to hold: out of range.
  const n = text === null ? raw : Number(/e/i.test(text) ? text : text.replace(/\.\d*$/, '').replace(/^[+-]?$/, '0'));
  if (Number.isNaN(n)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.trunc(n as number)));
}

/** A positive integer id that a stored row could have, or null when the value cannot name one. */
export function positiveId(raw: unknown): number | null {
  // Exactly as written: `1 `, `+1`, `01` and `1e0` are not how an id is written.
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : '';
  if (!/^[1-9]\d{0,15}$/.test(s)) return null;
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n > MAX_ID) return null;
  return n;
}

/** D20: an id that is not a positive integer names no row, so it is not found rather than bad. */
export function parseId(raw: unknown, what: 'work item' | 'arrangement' | 'mailbox'): number {
  const n = positiveId(raw);
  if (n === null) throw notFound(what, raw);
  return n;
}

/**
 * A text filter as given, or null when it cannot name anything stored: PostgreSQL text holds
 * no NUL character, and a value carrying one would fail the query instead of matching nothing.
 */
export function filterText(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  const s = String(raw);
  return s.includes('\u0000') ? null : s;
}
