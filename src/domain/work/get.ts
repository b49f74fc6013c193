import { findWork } from '../../store/repositories/work.ts';
import type { DeskContext } from '../context.ts';
import type { MessageStatus } from '../vocab.ts';
import { notFound } from '../errors.ts';
import type { WorkItem } from './derive.ts';
import { toItem } from './items.ts';

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
  const messages = (await ctx.db
    .selectFrom('activity')
    .select(['id', 'channel', 'direction', 'subject', 'body', 'status', 'actor', 'to_address as to', 'created_at', 'sent_at', 'approved_at'])
    .where('desk_id', '=', ctx.desk.id)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .orderBy('created_at')
    .orderBy('id')
    .execute()) as Message[];
  const timeline = await ctx.db
    .selectFrom('timeline')
    .select(['kind', 'at', 'text'])
    .where('desk_id', '=', ctx.desk.id)
    .where('work_id', '=', workId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return { work: await toItem(ctx, row), messages, timeline };
}
