import { sameAnswer } from '../same-answer.ts';
import type { DeskContext } from '../context.ts';
import { clampLimit } from '../input.ts';
import { storedObject } from '../text.ts';
import { recentEvents } from '../../store/repositories/events.ts';

// GET /events: the desk's own log, newest first; `limit` only, brought into 1-200.

export interface EventEntry {
  id: number;
  kind: string;
  message: string;
  data: Record<string, unknown>;
  created_at: string;
}

/** The stored text as an object; anything else (never written, but possible by hand) as {}. */
export function eventData(text: string): Record<string, unknown> {
  return storedObject(text);
}

export async function listEvents(ctx: DeskContext, query: { limit?: unknown } = {}): Promise<{ items: EventEntry[] }> {
  return sameAnswer(ctx, 'events', query.limit ?? null, async () => {
    const rows = await recentEvents(ctx.db, ctx.desk.id, clampLimit(query.limit));
    return { items: rows.map((r) => ({ ...r, data: eventData(r.data) })) };
  });
}
