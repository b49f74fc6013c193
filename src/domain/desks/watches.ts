import { sameAnswer } from '../same-answer.ts';
import type { DeskContext } from '../context.ts';
import type { WatchRow } from '../../store/schema.ts';
import { watchesOf } from '../../store/repositories/desk-reads.ts';

// GET /watches: the dates the desk watches, and the work each turns into.

/** A watch as the contract shows it: every stored field but the desk. */
export type Watch = Omit<WatchRow, 'desk_id'>;

export async function listWatches(ctx: DeskContext): Promise<{ items: Watch[] }> {
  return sameAnswer(ctx, 'watches', null, async () => {
    const items = await watchesOf(ctx.db, ctx.desk.id);
    return { items };
  });
}
