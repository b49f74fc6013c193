import type { DeskContext } from '../context.ts';
import { findFinishedWork } from '../../store/repositories/finished-work.ts';
import type { WorkItem } from './derive.ts';
import { toItems } from './items.ts';

/** The owner's look back: done or closed rows, which /work (open rows only) never lists. */
export async function listFinished(ctx: DeskContext, status: 'done' | 'closed', limit: number): Promise<WorkItem[]> {
  return toItems(ctx, await findFinishedWork(ctx.db, ctx.desk.id, status, Math.max(1, Math.floor(limit))));
}
