import type { DeskContext } from '../context.ts';

// GET /watches: the dates the desk watches, and the work each turns into.

export interface Watch {
  id: number;
  subject_type: string;
  field: string;
  label: string;
  lead_days: number;
  kind: string;
  action: string;
  every: string | null;
  priority: number;
}

export async function listWatches(ctx: DeskContext): Promise<{ items: Watch[] }> {
  const items = await ctx.db
    .selectFrom('watches')
    .select(['id', 'subject_type', 'field', 'label', 'lead_days', 'kind', 'action', 'every', 'priority'])
    .where('desk_id', '=', ctx.desk.id)
    .orderBy('id')
    .execute();
  return { items };
}
