import type { DeskContext } from '../context.ts';
import type { WatchRow } from '../../store/schema.ts';
import { unitRowsOfTypes, watchRowsOf } from '../../store/repositories/desk-reads.ts';
import { watchMadeRows } from '../../store/repositories/work.ts';
import { everyDays, madeOccurrences, pendingOccurrence, waitsOnMade, watchedDate, workStartsOn } from './schedule.ts';

// When each watch next turns into work, by the same rules the watch pass applies: for every
// unit of the watch's type, the pending occurrence and the day it comes within its lead time.

export type NextWork =
  | { starts_on: string; occurrence: string; unit: string }
  | { starts_on: null; why: 'no_units' | 'no_dates' | 'waiting' | 'ended' };

export interface UpcomingWatch {
  watch: WatchRow;
  next: NextWork;
}

/** One unit's pending date under one watch. */
export interface WatchedDate {
  watch: WatchRow;
  unit: string;
  occurrence: string;
  starts_on: string;
}

interface Watched {
  watch: WatchRow;
  units: number;
  dated: boolean;
  /** Whether a row it made for some unit is still unfinished. */
  waiting: boolean;
  pending: WatchedDate[];
}

async function readWatched(ctx: DeskContext): Promise<Watched[]> {
  const watches = await watchRowsOf(ctx.db, ctx.desk.id);
  if (watches.length === 0) return [];
  const types = [...new Set(watches.map((w) => w.subject_type))];
  const [units, rows] = await Promise.all([
    unitRowsOfTypes(ctx.db, ctx.desk.id, types),
    watchMadeRows(ctx.db, ctx.desk.id),
  ]);
  const madeFor = madeOccurrences(rows);
  const today = ctx.today();

  return watches.map((watch) => {
    const mine = units.filter((u) => u.type === watch.subject_type);
    const pending: WatchedDate[] = [];
    let dated = false;
    let waiting = false;
    for (const unit of mine) {
      // A row made for a unit whose date has since gone is still work the watch waits on.
      const made = madeFor(watch, unit.id);
      waiting ||= waitsOnMade(made);
      const date = watchedDate(unit.fields, watch.field);
      if (date === null) continue;
      dated = true;
      const occurrence = pendingOccurrence({ date, every: everyDays(watch.every), made });
      if (occurrence === null) continue;
      pending.push({ watch, unit: unit.name, occurrence, starts_on: workStartsOn(occurrence, watch.lead_days, today) });
    }
    return { watch, units: mine.length, dated, waiting, pending };
  });
}

export async function upcomingWatches(ctx: DeskContext): Promise<UpcomingWatch[]> {
  return (await readWatched(ctx)).map(({ watch, units, dated, waiting, pending }) => {
    if (units === 0) return { watch, next: { starts_on: null, why: 'no_units' } };
    let best: WatchedDate | null = null;
    for (const p of pending) {
      if (!best || p.starts_on < best.starts_on || (p.starts_on === best.starts_on && p.occurrence < best.occurrence))
        best = p;
    }
    if (best) return { watch, next: { starts_on: best.starts_on, occurrence: best.occurrence, unit: best.unit } };
    // Dated units with nothing pending and nothing unfinished: each one-off is made and finished,
    // or a chain has run past the last day a row can hold.
    return { watch, next: { starts_on: null, why: waiting ? 'waiting' : dated ? 'ended' : 'no_dates' } };
  });
}

/** Every unit's pending date under every watch, in no particular order. */
export async function watchedDates(ctx: DeskContext): Promise<WatchedDate[]> {
  return (await readWatched(ctx)).flatMap((w) => w.pending);
}
