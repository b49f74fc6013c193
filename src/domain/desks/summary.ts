import type { DeskContext } from '../context.ts';
import { midnightIn } from '../dates.ts';
import { sameAnswer } from '../same-answer.ts';
import { countClosedSince } from '../../store/repositories/work.ts';
import { openOutWith } from '../../store/repositories/open-counts.ts';

export interface WorkCounts {
  /** Rows in open, in_progress or waiting; the same number as open_total on /work. */
  open: number;
  /** Open rows that are out with somebody else (waiting_on set, D21). */
  waiting: number;
  /** Rows that reached done or closed since the desk's midnight (D9). */
  closed_today: number;
}

export async function workCounts(ctx: DeskContext): Promise<WorkCounts> {
  return sameAnswer(ctx, 'counts', null, async () => {
    const since = midnightIn(ctx.desk.timezone, ctx.today()).toISOString();
    // The waiting count is stored (open_class_counts); closed_today reads its own index, so /me
    // never reads the queue.
    const waiting = await openOutWith(ctx.db, ctx.desk.id);
    const closed = await countClosedSince(ctx.db, ctx.desk.id, since);
    return { open: ctx.desk.open_count, waiting, closed_today: closed };
  });
}

export async function me(ctx: DeskContext) {
  if (ctx.actor.type !== 'key') throw new Error('me() describes the key a program holds');
  const d = ctx.desk;
  return {
    key: { id: ctx.actor.keyId, name: ctx.actor.keyName, prefix: ctx.actor.keyPrefix },
    desk: { id: d.id, name: d.name, slug: d.slug, plan: d.plan, status: d.status },
    work: await workCounts(ctx),
  };
}
