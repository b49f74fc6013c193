import type { DeskContext } from '../context.ts';
import { findFinishedWork } from '../../store/repositories/finished-work.ts';
import type { WorkItem } from './derive.ts';
import { toItems } from './items.ts';

/**
 * The owner's look back: done or closed rows (of one kind, when given), which /work (open rows
 * only) never lists; `more` when there are more than `limit`.
 */
export async function listFinished(
  ctx: DeskContext,
  status: 'done' | 'closed',
  limit: number,
  kind?: string,
): Promise<{ items: WorkItem[]; more: boolean }> {
  const most = Math.max(1, Math.floor(limit));
  const rows = await findFinishedWork(ctx.db, ctx.desk.id, status, most + 1, kind);
  return { items: await toItems(ctx, rows.slice(0, most)), more: rows.length > most };
}
