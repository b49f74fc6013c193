import { findDesk, grantsOf } from '../../store/repositories/desks.ts';
import { findWork, rowsWithDrafts } from '../../store/repositories/work.ts';
import { mailboxOf } from '../../store/repositories/connections.ts';
import { plural } from '../text.ts';
import type { DeskContext } from '../context.ts';
import { addDays, addDaysUpToLast, DAY_MS, dateIn, LAST_DAY, midnightIn, minuteOfInstant } from '../dates.ts';
import { actsLeft } from '../desks/rails.ts';
import { isWorkingTime, workingDayFrom } from '../desks/hours.ts';
import { isFinished } from '../vocab.ts';
import type { WorkRow } from '../../store/schema.ts';
import { daysWaiting } from './derive.ts';
import { ownAct } from './own.ts';
import { actAddress } from './address-day.ts';
import { lastSentToSince } from '../../store/repositories/activity.ts';

// One sentence for a row: when the desk will next act on it by itself, or why it will not.

export async function ownNext(ctx: DeskContext, workId: number): Promise<string | null> {
  const [row, desk] = await Promise.all([findWork(ctx.db, ctx.desk.id, workId), findDesk(ctx.db, ctx.desk.id)]);
  if (!row || !desk || isFinished(row.status)) return null;
  const now = ctx.clock.now();
  const today = ctx.today();
  const mailbox = await mailboxOf(ctx.db, desk.id);
  const drafts = await rowsWithDrafts(ctx.db, desk.id, [row.id]);
  const facts = {
    row,
    hasDraft: drafts.has(row.id),
    grants: await grantsOf(ctx.db, desk.id),
    timezone: desk.timezone,
    actWithinDays: desk.act_within_days,
    dayAgo: new Date(now.getTime() - DAY_MS).toISOString(),
    browser: ctx.engine.runner.available(),
    mailbox: mailbox !== undefined,
  };
  const decided = ownAct({ ...facts, today });
  if ('leave' in decided) {
    // Not now: say when it would act only if the rule says it would then. Its last act holds
    // it for a day; a wait or a far-off date holds it to a later date.
    const lapse =
      row.desk_acted_at && row.desk_acted_at >= facts.dayAgo
        ? minuteAfter(Date.parse(row.desk_acted_at) + DAY_MS)
        : null;
    const lapseDay = lapse === null ? null : dateIn(desk.timezone, new Date(lapse));
    const later = laterDay(row, today, desk.timezone, desk.act_within_days);
    const from = lapseDay !== null && (later === null || lapseDay >= later) ? lapseDay : later;
    // When the day is up is what holds it, the minute is the answer: that may still be today.
    // Either way it is said no earlier than the desk's working hours let it act.
    const when = firstChance(desk, from, lapse !== null && from === lapseDay ? new Date(lapse) : null);
    // On that day, by its end, an act more than a day before the end is more than 24 hours old.
    const then = from
      ? ownAct({
          ...facts,
          today: from,
          dayAgo: new Date(endOfDay(desk.timezone, from) - DAY_MS).toISOString(),
        })
      : decided;
    if ('leave' in then)
      // The row's hint is said beside this line; saying it again here only repeats it.
      return then.shown
        ? 'The desk will not act on this on its own.'
        : `The desk will not act on this on its own: ${then.leave}`;
    return desk.paused
      ? `The desk would act on this on its own from ${when}, but it is paused.`
      : `The desk acts on this on its own from ${when}.`;
  }
  const what = decided.as === 'chase' ? 'chase this' : 'do this';
  // The pass's own cap (P-pass-4): acts since the desk's midnight. A cap of 0 keeps the desk from
  // acting at all, whatever its hours and whether it is paused.
  if (desk.daily_cap === 0) return `The desk will not ${what} on its own: its daily cap is 0.`;
  if (desk.paused) return `The desk would ${what} on its own, but it is paused.`;
  if (!isWorkingTime(desk.hours, desk.timezone, now))
    return `The desk will ${what} on its own in its working hours (${desk.hours}).`;
  if ((await actsLeft(ctx.db, desk, today)) <= 0) {
    const done = `The desk has done its ${plural(desk.daily_cap, 'act')} for today`;
    // The last day the desk keeps has no tomorrow to name.
    return today >= LAST_DAY
      ? `${done}.`
      : `${done}; it will ${what} on its own from ${workingDayFrom(desk.hours, addDays(today, 1))}.`;
  }
  // After a send that could not reach the mail server, the server holds the desk's sends
  // (P-pass-8) until one gets through: the next pass is not when it goes.
  if (row.playbook_id === null && mailbox?.send_fault)
    return `The desk will ${what} on its own once its mail server answers; its last send could not reach it.`;
  // One message a day to an address (P-pass-6), whichever row it was about.
  const to = actAddress(row, drafts);
  const wrote = to ? await lastSentToSince(ctx.db, desk.id, to, facts.dayAgo) : null;
  if (to && wrote) {
    const free = new Date(minuteAfter(Date.parse(wrote) + DAY_MS));
    const when = firstChance(desk, dateIn(desk.timezone, free), free);
    return `A message went to ${to} in the last 24 hours, and the desk writes to an address once a day; it will ${what} on its own from ${when}.`;
  }
  return `The desk will ${what} on its own on its next pass.`;
}

/** The instant `day` ends in the zone: the next day's midnight, or a day on from its own for the last day kept. */
function endOfDay(timezone: string, day: string): number {
  return day >= LAST_DAY
    ? midnightIn(timezone, day).getTime() + DAY_MS
    : midnightIn(timezone, addDays(day, 1)).getTime();
}

/**
 * The start of the minute after `ms`: a row held while its last act or message is 24 hours old
 * or less is free only after that instant, and the line names whole minutes.
 */
function minuteAfter(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000 + 60_000;
}

/**
 * When the desk can first act from `day` on: the minute `at` when that is within its hours,
 * else the first day with working time left after it.
 */
function firstChance(desk: { hours: string; timezone: string }, day: string | null, at: Date | null): string | null {
  if (day === null) return null;
  if (at === null) return workingDayFrom(desk.hours, day);
  if (isWorkingTime(desk.hours, desk.timezone, at)) return minuteOfInstant(desk.timezone, at.toISOString());
  const local = minuteOfInstant(desk.timezone, at.toISOString());
  const minute = Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));
  return workingDayFrom(desk.hours, day, minute);
}

/**
 * The day the rule may first decide otherwise: when a wait has lasted the row's chase interval,
 * or when a far-off due date comes within the desk's reach.
 */
function laterDay(row: WorkRow, today: string, timezone: string, actWithinDays: number): string | null {
  if (row.waiting_on) {
    const waited = daysWaiting(row, today, timezone) ?? 0;
    if (waited >= row.chase_after_days) return null;
    // A chase day past the last day the desk keeps never comes.
    const day = addDays(today, row.chase_after_days - waited);
    return day.startsWith('+') ? null : day;
  }
  if (row.due_date !== null && row.due_date > addDaysUpToLast(today, actWithinDays))
    return addDays(row.due_date, -actWithinDays);
  return null;
}
