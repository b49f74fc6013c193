import type { DeskContext } from '../context.ts';
import type { WatchRow } from '../../store/schema.ts';
import { unitRowsOfTypes, watchRowsOf } from '../../store/repositories/desk-reads.ts';
import { watchMadeRows } from '../../store/repositories/work.ts';
import { everyDays, pendingOccurrence, watchedDate, workStartsOn } from './schedule.ts';

// When each watch next turns into work, by the same rules the watch pass applies: over every
// unit of the watch's type, the earliest day a pending occurrence comes within its lead time.

export type NextWork =
  | { starts_on: string; occurrence: string; unit: string }
  | { starts_on: null; why: 'no_units' | 'no_dates' | 'waiting' };

export interface UpcomingWatch {
  watch: WatchRow;
  next: NextWork;
}

export async function upcomingWatches(ctx: DeskContext): Promise<UpcomingWatch[]> {
  const watches = await watchRowsOf(ctx.db, ctx.desk.id);
  if (watches.length === 0) return [];
  const types = [...new Set(watches.map((w) => w.subject_type))];
  const [units, rows] = await Promise.all([
    unitRowsOfTypes(ctx.db, ctx.desk.id, types),
    watchMadeRows(ctx.db, ctx.desk.id),
  ]);
  const made = new Map<string, Map<string, string>>();
  for (const r of rows) {
    if (r.watch_id === null || r.unit_id === null || r.watch_date === null) continue;
    const key = `${r.watch_id}:${r.unit_id}`;
    if (!made.has(key)) made.set(key, new Map());
    made.get(key)!.set(r.watch_date, r.status);
  }
  const today = ctx.today();

  return watches.map((watch) => {
    const mine = units.filter((u) => u.type === watch.subject_type);
    if (mine.length === 0) return { watch, next: { starts_on: null, why: 'no_units' } };
    let best: Extract<NextWork, { starts_on: string }> | null = null;
    let dated = false;
    for (const unit of mine) {
      const date = watchedDate(unit.fields, watch.field);
      if (date === null) continue;
      dated = true;
      const occurrence = pendingOccurrence({
        date,
        every: everyDays(watch.every),
        made: made.get(`${watch.id}:${unit.id}`) ?? new Map(),
      });
      if (occurrence === null) continue;
      const starts = workStartsOn(occurrence, watch.lead_days, today);
      if (!best || starts < best.starts_on || (starts === best.starts_on && occurrence < best.occurrence))
        best = { starts_on: starts, occurrence, unit: unit.name };
    }
    if (best) return { watch, next: best };
    return { watch, next: { starts_on: null, why: dated ? 'waiting' : 'no_dates' } };
  });
}
