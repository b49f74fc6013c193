import { findDesk, grantsOf } from '../../store/repositories/desks.ts';
import { findWork, rowsWithDrafts } from '../../store/repositories/work.ts';
import type { DeskContext } from '../context.ts';
import { addDays } from '../dates.ts';
import { isWorkingTime } from '../desks/hours.ts';
import { isFinished } from '../vocab.ts';
import { ownAct } from './own.ts';

// One sentence for a row: when the desk will next act on it by itself, or why it will not.

export async function ownNext(ctx: DeskContext, workId: number): Promise<string | null> {
  const [row, desk] = await Promise.all([findWork(ctx.db, ctx.desk.id, workId), findDesk(ctx.db, ctx.desk.id)]);
  if (!row || !desk || isFinished(row.status)) return null;
  const now = ctx.clock.now();
  const today = ctx.today();
  const facts = {
    row,
    hasDraft: (await rowsWithDrafts(ctx.db, desk.id, [row.id])).has(row.id),
    grants: await grantsOf(ctx.db, desk.id),
    timezone: desk.timezone,
    actWithinDays: desk.act_within_days,
    dayAgo: new Date(now.getTime() - 24 * 3600_000).toISOString(),
  };
  const decided = ownAct({ ...facts, today });
  if ('leave' in decided) {
    // Too far ahead today: say when it comes within reach only if the desk would act then.
    const from =
      row.due_date !== null && row.due_date > addDays(today, desk.act_within_days)
        ? addDays(row.due_date, -desk.act_within_days)
        : null;
    const then = from ? ownAct({ ...facts, today: from }) : decided;
    if ('leave' in then) return `The desk will not act on this on its own: ${then.leave}`;
    return desk.paused
      ? `The desk would act on this on its own from ${from}, but it is paused.`
      : `The desk acts on this on its own from ${from}.`;
  }
  const what = decided.as === 'chase' ? 'chase this' : 'do this';
  if (desk.paused) return `The desk would ${what} on its own, but it is paused.`;
  if (!isWorkingTime(desk.hours, desk.timezone, now))
    return `The desk will ${what} on its own in its working hours (${desk.hours}).`;
  return `The desk will ${what} on its own on its next pass.`;
}
