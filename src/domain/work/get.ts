import { sameAnswer } from '../same-answer.ts';
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
  /** A received message's attachments by name and size; the files are not kept. */
  attachments?: Array<{ name: string; size: number }>;
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

/** A received message's attachments in words, as a person reading it is told of them; null when it has none. */
export function attachmentsLine(list: Message['attachments']): string | null {
  if (!list || list.length === 0) return null;
  const each = list.map((a) => `${a.name} (${Math.max(1, Math.round(a.size / 1024))} KB)`);
  return `Attachments (not kept by the desk): ${each.join(', ')}`;
}

function listed(stored: string | null): Array<{ name: string; size: number }> {
  if (!stored) return [];
  try {
    const list = JSON.parse(stored);
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export async function getWork(ctx: DeskContext, workId: number): Promise<WorkDetail> {
  return sameAnswer(ctx, 'work row', workId, async () => {
    const row = await findWork(ctx.db, ctx.desk.id, workId);
    if (!row) throw notFound('work item', workId);
    const messages = (await messagesOn(ctx.db, ctx.desk.id, workId)).map(({ attachments, ...m }) => ({
      ...m,
      ...(m.direction === 'inbound' ? { attachments: listed(attachments) } : {}),
    })) as Message[];
    const timeline = await timelineOf(ctx.db, ctx.desk.id, workId);
    return { work: await toItem(ctx, row), messages, timeline };
  });
}
