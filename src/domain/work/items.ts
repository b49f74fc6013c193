import { grantsOf } from '../../store/repositories/desks.ts';
import { rowsWithDrafts } from '../../store/repositories/work.ts';
import type { WorkRow } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { toWorkItem, type WorkItem } from './derive.ts';

/** Stored rows as a client sees them: the desk's grants and drafts looked up once for the batch. */
export async function toItems(ctx: DeskContext, rows: readonly WorkRow[]): Promise<WorkItem[]> {
  if (rows.length === 0) return [];
  const grants = await grantsOf(ctx.db, ctx.desk.id);
  const drafts = await rowsWithDrafts(
    ctx.db,
    ctx.desk.id,
    rows.map((r) => r.id),
  );
  const today = ctx.today();
  return rows.map((row) =>
    toWorkItem({
      row,
      hasDraft: drafts.has(row.id),
      draftTo: drafts.get(row.id),
      grants,
      today,
      timezone: ctx.desk.timezone,
    }),
  );
}

export async function toItem(ctx: DeskContext, row: WorkRow): Promise<WorkItem> {
  return (await toItems(ctx, [row]))[0]!;
}
