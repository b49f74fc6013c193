import { addDays, isIsoDate } from '../dates.ts';
import { isFinished } from '../vocab.ts';
import { storedObject } from '../text.ts';

// When a watched date becomes work: pure rules over a unit's date, the watch and the rows the
// watch has already made, so they are tested as a table.

/** Guards a chain of `every` occurrences against a date that never catches up with today. */
const MAX_STEPS = 10_000;

/** A watch's `every` as written: whole days (`365`, `30d`, `14 days`), 0 when blank, or null when it is not a count. */
export function everyCount(every: string): number | null {
  if (every.trim() === '') return 0;
  const m = /^\s*(\d{1,5})\s*(d|days?)?\s*$/i.exec(every);
  return m ? Number(m[1]) : null;
}

/** A watch's `every` as whole days, or null when it is one-off (null, blank, 0 or not a count). */
export function everyDays(every: string | null): number | null {
  const n = every === null ? null : everyCount(every);
  return n ? n : null;
}

/** A row a watch made: for which unit and date, of what kind, and how far along it is. */
export interface MadeRow {
  watch_id: number | null;
  unit_id: number | null;
  watch_date: string | null;
  kind: string;
  status: string;
}

/**
 * The dates each watch has already made a row for, by unit, each with the row's status. A row
 * whose watch was removed since counts for any watch of the same kind on its unit: a watch
 * removed and made again is the same obligation, and goes on from the rows it made before
 * rather than making a second row for a date that has one.
 */
export function madeOccurrences(rows: readonly MadeRow[]) {
  const byWatch = new Map<string, Map<string, string>>();
  const removed = new Map<string, Map<string, string>>();
  for (const r of rows) {
    if (r.unit_id === null || r.watch_date === null) continue;
    const [into, key] =
      r.watch_id === null ? [removed, `${r.kind}:${r.unit_id}`] : [byWatch, `${r.watch_id}:${r.unit_id}`];
    if (!into.has(key)) into.set(key, new Map());
    into.get(key)!.set(r.watch_date, r.status);
  }
  return (watch: { id: number; kind: string }, unitId: number): ReadonlyMap<string, string> =>
    new Map([...(removed.get(`${watch.kind}:${unitId}`) ?? []), ...(byWatch.get(`${watch.id}:${unitId}`) ?? [])]);
}

/** The title of the row a watch makes for a unit. */
export function watchTitle(watch: { label: string }, unit: { name: string }): string {
  return `${watch.label}: ${unit.name}`;
}

/**
 * Which of the watches made a row, told from the row alone: a business file has no field that
 * says so, and a row a watch made read back as a plain one would have the watch make a second
 * row for its date. A row is a watch's when it is on a unit the watch looks at, of the watch's
 * kind, and dated: the watch whose date on the unit is the row's, else one that titles its rows
 * as the row is titled. Null for any other row.
 */
export function madeByWatch<W extends { subject_type: string; field: string; label: string; kind: string }>(
  row: { title: string; kind: string; due_date: string | null },
  unit: { type: string; name: string; fields: string } | null,
  watches: readonly W[],
): W | null {
  if (unit === null || row.due_date === null) return null;
  const alike = watches.filter((w) => w.subject_type === unit.type && w.kind === row.kind);
  // Its date on the unit says whose it is, whatever it is called now: the unit or the watch
  // renamed since, or the row retitled. Failing that, its title, with its date moved since.
  const dated = alike.find((w) => watchedDate(unit.fields, w.field) === row.due_date);
  return dated ?? alike.find((w) => watchTitle(w, unit) === row.title) ?? null;
}

/** The date a unit holds in `field`, or null when the field is missing or not a real YYYY-MM-DD date. */
export function watchedDate(fieldsJson: string, field: string): string | null {
  const value = storedObject(fieldsJson)[field];
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return isIsoDate(trimmed) ? trimmed : null;
}

/** The desk starts working a date `leadDays` ahead of it: today >= date - leadDays. */
export function isInLead(date: string, leadDays: number, today: string): boolean {
  return today >= addDays(date, -leadDays);
}

/** Whether a row the watch made for the unit is still unfinished: until it is, nothing more is made. */
export function waitsOnMade(made: ReadonlyMap<string, string>): boolean {
  for (const status of made.values()) if (!isFinished(status)) return true;
  return false;
}

/**
 * The occurrence a watch will make work of next for one unit, or null when there is none yet.
 * `made` maps each watch_date already holding a row to that row's status.
 * The first occurrence is the unit's date; with `every`, the next one follows only once the
 * current one is done or closed. While any row the watch made for the unit is unfinished, none
 * is pending: a date changed on the unit meanwhile waits for that row (P-watches-2).
 */
export function pendingOccurrence(input: {
  date: string;
  every: number | null;
  made: ReadonlyMap<string, string>;
}): string | null {
  if (waitsOnMade(input.made)) return null;
  let d = input.date;
  for (let i = 0; i < MAX_STEPS; i++) {
    const status = input.made.get(d);
    if (status === undefined) return d;
    if (input.every === null || !isFinished(status)) return null;
    d = addDays(d, input.every);
    // Past 9999-12-31, the last day a row can hold, the chain ends.
    if (!isIsoDate(d)) return null;
  }
  return null;
}

/** The occurrence a watch should create now for one unit: the pending one, once within its lead time. */
export function dueOccurrence(input: {
  date: string;
  every: number | null;
  leadDays: number;
  today: string;
  made: ReadonlyMap<string, string>;
}): string | null {
  const d = pendingOccurrence(input);
  return d !== null && isInLead(d, input.leadDays, input.today) ? d : null;
}

/** The day an occurrence turns into work: `leadDays` before it, or today when that day has passed. */
export function workStartsOn(occurrence: string, leadDays: number, today: string): string {
  const start = addDays(occurrence, -leadDays);
  return start > today ? start : today;
}
