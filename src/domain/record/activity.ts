import { sameAnswer } from '../same-answer.ts';
import type { DeskContext } from '../context.ts';
import type { ActivityRow } from '../../store/schema.ts';
import { clampLimit } from '../input.ts';
import { recentActivity } from '../../store/repositories/activity.ts';

// GET /activity (D27): everything written or sent (messages in any status, notes, run
// reports), newest first. `limit` only, brought into 1-200; no cursor, no total.

/** The contract's activity entry: the stored entry without the desk's own bookkeeping (kind, recipient, failure). */
export type ActivityEntry = Pick<
  ActivityRow,
  | 'id'
  | 'obligation_id'
  | 'arrangement_id'
  | 'outcome_id'
  | 'channel'
  | 'direction'
  | 'subject'
  | 'body'
  | 'status'
  | 'actor'
  | 'created_at'
  | 'sent_at'
  | 'approved_at'
>;

export async function listActivity(
  ctx: DeskContext,
  query: { limit?: unknown } = {},
): Promise<{ items: ActivityEntry[] }> {
  return sameAnswer(ctx, 'activity', query.limit ?? null, async () => {
    const items = await recentActivity(ctx.db, ctx.desk.id, clampLimit(query.limit));
    return { items };
  });
}
