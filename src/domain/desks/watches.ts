import type { DeskContext } from '../context.ts';
import type { WatchRow } from '../../store/schema.ts';

// GET /watches: the dates the desk watches, and the work each turns into.

/** A watch as the contract shows it: every stored field but the desk. */
export type Watch = Omit<WatchRow, 'desk_id'>;

export async function listWatches(ctx: DeskContext): Promise<{ items: Watch[] }> {
  const items = await ctx.db
    .selectFrom('watches')
    .select(['id', 'subject_type', 'field', 'label', 'lead_days', 'kind', 'action', 'every', 'priority'])
    .where('desk_id', '=', ctx.desk.id)
    .orderBy('id')
    .execute();
  return { items };
}
