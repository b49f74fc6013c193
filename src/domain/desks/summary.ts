import type { DeskContext } from '../context.ts';
import { midnightIn } from '../dates.ts';
import { OPEN_STATUSES, FINISHED_STATUSES } from '../vocab.ts';

export interface WorkCounts {
  /** Rows in open, in_progress or waiting; the same number as open_total on /work. */
  open: number;
  /** Open rows that are out with somebody else (waiting_on set, D21). */
  waiting: number;
  /** Rows that reached done or closed since the desk's midnight (D9). */
  closed_today: number;
}

export async function workCounts(ctx: DeskContext): Promise<WorkCounts> {
  const since = midnightIn(ctx.desk.timezone, ctx.today()).toISOString();
  const r = await ctx.db
    .selectFrom('work')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('status', 'in', [...OPEN_STATUSES]).then(eb.case().when('waiting_on', 'is not', null).then(1).else(0).end()).else(0).end()).as('waiting'),
      eb.fn.sum<number>(eb.case().when('status', 'in', [...FINISHED_STATUSES]).then(eb.case().when('closed_at', '>=', since).then(1).else(0).end()).else(0).end()).as('closed_today'),
    ])
    .where('desk_id', '=', ctx.desk.id)
    .where((eb) => eb.or([eb('waiting_on', 'is not', null), eb('closed_at', '>=', since)]))
    .executeTakeFirstOrThrow();
  return { open: ctx.desk.open_count, waiting: Number(r.waiting ?? 0), closed_today: Number(r.closed_today ?? 0) };
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
