import { addEvent, addTimeline } from '../store/repositories/events.ts';
import type { DeskContext } from './context.ts';

// Every verb records what it did through these two, so the desk log and a row's timeline
// read the same way whichever door the action came through.

export async function logEvent(
  ctx: DeskContext,
  kind: string,
  message: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  await addEvent(ctx.db, { deskId: ctx.desk.id, kind, message, data, at: ctx.now() });
}

export async function logTimeline(ctx: DeskContext, workId: number, kind: string, text: string): Promise<void> {
  await addTimeline(ctx.db, { deskId: ctx.desk.id, workId, kind, text, at: ctx.now() });
}
