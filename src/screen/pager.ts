// The queue's cursors lead forward only, as the API's do. So that the screen can offer a
// previous page, each page's address carries the cursors of the pages before it (`back`): empty
// when the page before is the first, absent when the way back is not known (an address pasted
// or typed). Only the last few are kept, to keep the address short; a trail cut short starts
// with LOST, and going back past it is left to "First page".

const MAX_BACK = 12;
const LOST = '~';
const SEP = ' ';
const CURSORISH = /^[A-Za-z0-9_.-]{1,400}$/;

/** The cursors of the pages before this one, oldest first, or null when they are not known. */
export type Trail = readonly string[] | null;

export function readTrail(raw: unknown): Trail {
  if (typeof raw !== 'string') return null;
  if (raw === '') return [];
  const parts = raw.split(SEP);
  if (parts.length > MAX_BACK) return null;
  const ok = parts.every((p, i) => CURSORISH.test(p) || (i === 0 && p === LOST));
  return ok ? parts : null;
}

export function writeTrail(trail: readonly string[]): string {
  return trail.join(SEP);
}

/** Where "Previous page" goes from a later page: a cursor, undefined for the first page, or null when unknown. */
export function previousPage(trail: Trail): { cursor: string | undefined; trail: Trail } | null {
  if (trail === null) return null;
  if (trail.length === 0) return { cursor: undefined, trail: null };
  const cursor = trail[trail.length - 1]!;
  if (cursor === LOST) return null;
  return { cursor, trail: trail.slice(0, -1) };
}

/** The trail the next page carries, from this page's cursor (undefined on the first page) and trail. */
export function nextTrail(cursor: string | undefined, trail: Trail): readonly string[] {
  if (cursor === undefined) return [];
  const longer = [...(trail ?? [LOST]), cursor];
  if (longer.length <= MAX_BACK) return longer;
  return [LOST, ...longer.slice(longer.length - MAX_BACK + 1)];
}
