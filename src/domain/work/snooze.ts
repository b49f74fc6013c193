import { findWork, updateWork } from '../../store/repositories/work.ts';
import { actorName, type DeskContext } from '../context.ts';
import { addDays, isIsoDate } from '../dates.ts';
import { badRequest, notFound } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import { plural } from '../text.ts';
import type { SnoozeAnswer } from '../contract/work.ts';
import { storedStatus } from '../vocab.ts';
import { SNOOZE_DEFAULT_DAYS, SNOOZE_MAX_DAYS, SNOOZE_MIN_DAYS } from './snooze-days.ts';

export type { SnoozeAnswer } from '../contract/work.ts';

// POST /work/{id}/snooze: the due date moves out by `days` (from the existing date, or from
// today when there is none) and priority falls by 5, floored at 1 (P-1). Status, action and
// messages are untouched; nothing is sent.

export { SNOOZE_DEFAULT_DAYS, SNOOZE_MAX_DAYS, SNOOZE_MIN_DAYS } from './snooze-days.ts';
export const SNOOZE_PRIORITY_DROP = 5;
export const PRIORITY_FLOOR = 1;
export const DAYS_MESSAGE = `days must be a whole number between ${SNOOZE_MIN_DAYS} and ${SNOOZE_MAX_DAYS}.`;

const pastLastDate = (from: string, days: number) =>
  `Snoozing ${plural(days, 'day')} from ${from} would pass 9999-12-31, the last date a row can be due; nothing was changed.`;

/** `days` as given: absent means the default; anything but an integer in range is refused. */
export function snoozeDays(raw: unknown): number {
  if (raw === undefined) return SNOOZE_DEFAULT_DAYS;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < SNOOZE_MIN_DAYS || raw > SNOOZE_MAX_DAYS)
    throw badRequest(DAYS_MESSAGE);
  return raw;
}

export async function snoozeWork(ctx: DeskContext, workId: number, rawDays?: unknown): Promise<SnoozeAnswer> {
  const days = snoozeDays(rawDays);
  return atomically(ctx, async (tx) => snoozeIn(tx, workId, days));
}

async function snoozeIn(ctx: DeskContext, workId: number, days: number): Promise<SnoozeAnswer> {
  await lockRow(ctx, workId);
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);

  const from = row.due_date ?? ctx.today();
  const due = addDays(from, days);
  // Dates end at 9999-12-31; a row due near it cannot move further out.
  if (!isIsoDate(due)) throw badRequest(pastLastDate(from, days));
  const priority = Math.max(PRIORITY_FLOOR, Math.min(row.priority, 100) - SNOOZE_PRIORITY_DROP);
  await updateWork(ctx.db, ctx.desk.id, row.id, { due_date: due, priority, updated_at: ctx.now() }, row);
  await logEvent(ctx, 'snoozed', `Snoozed "${row.title}" by ${plural(days, 'day')} to ${due}.`, {
    work_id: row.id,
    days,
    from: row.due_date,
    due_date: due,
    priority,
    by: actorName(ctx.actor),
  });
  await logTimeline(ctx, row.id, 'snoozed', `Snoozed ${plural(days, 'day')}: now due ${due}, priority ${priority}.`);
  return { id: row.id, title: row.title, kind: row.kind, status: storedStatus(row.status), due_date: due, priority };
}
