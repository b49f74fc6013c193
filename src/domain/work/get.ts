import { findWork } from '../../store/repositories/work.ts';
import type { DeskContext } from '../context.ts';
import type { MessageStatus } from '../vocab.ts';
import { notFound } from '../errors.ts';
import type { WorkItem } from './derive.ts';
import { toItem } from './items.ts';
import { messagesOn } from '../../store/repositories/activity.ts';
import { timelineOf } from '../../store/repositories/events.ts';

// GET /work/{id} (D2): the work item as /work shows it, its messages and its timeline, both
// oldest first. Finished rows are still readable here.

export interface Message {
  id: number;
  channel: string;
  direction: 'outbound' | 'inbound';
  subject: string | null;
  body: string;
  status: MessageStatus;
  actor: string;
  to: string | null;
  created_at: string;
  sent_at: string | null;
  approved_at: string | null;
}

export interface TimelineEntry {
  kind: string;
  at: string;
  text: string;
}

export interface WorkDetail {
  work: WorkItem;
  messages: Message[];
  timeline: TimelineEntry[];
}

export async function getWork(ctx: DeskContext, workId: number): Promise<WorkDetail> {
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);
  const messages = (await messagesOn(ctx.db, ctx.desk.id, workId)) as Message[];
  const timeline = await timelineOf(ctx.db, ctx.desk.id, workId);
  return { work: await toItem(ctx, row), messages, timeline };
}
