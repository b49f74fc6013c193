import type { DeskContext } from '../context.ts';
import { clampLimit } from '../input.ts';

// GET /activity (D27): everything written or sent (messages in any status, notes, run
// reports), newest first. `limit` only, brought into 1-200; no cursor, no total.

export interface ActivityEntry {
  id: number;
  obligation_id: number | null;
  arrangement_id: number | null;
  outcome_id: number | null;
  channel: string;
  direction: string;
  subject: string | null;
  body: string;
  status: string;
  actor: string;
  created_at: string;
  sent_at: string | null;
  approved_at: string | null;
}

export async function listActivity(ctx: DeskContext, query: { limit?: unknown } = {}): Promise<{ items: ActivityEntry[] }> {
  const items = await ctx.db
    .selectFrom('activity')
    .select(['id', 'obligation_id', 'arrangement_id', 'outcome_id', 'channel', 'direction', 'subject', 'body', 'status', 'actor', 'created_at', 'sent_at', 'approved_at'])
    .where('desk_id', '=', ctx.desk.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(clampLimit(query.limit))
    .execute();
  return { items };
}
