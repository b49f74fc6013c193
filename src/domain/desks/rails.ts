import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../../store/schema.ts';
import { updateDeskRails } from '../../store/repositories/desks.ts';
import { countActedSince } from '../../store/repositories/pass.ts';
import { midnightIn } from '../dates.ts';
import { badRequest } from '../errors.ts';
import { isWorkingTime, parseHours } from './hours.ts';
import { requireDesk } from './manage.ts';
import { actorName, type DeskContext } from '../context.ts';
import { logEvent } from '../record.ts';
import { atomically } from '../../store/tx.ts';
import { echoedJson, longerThan } from '../text.ts';

// The rails on what a desk does on its own (issue 17): its working hours, a cap on acts per
// desk-day, how far ahead of a due date it acts, and one switch that pauses it all. The business
// file, the CLI and the screen all check them here; a bad value names its field and changes nothing.

export interface Rails {
  hours: string;
  daily_cap: number;
  act_within_days: number;
  paused: boolean;
}

/**
 * What keeps the desk from acting on its own at `now`, if anything: the pass asks before it
 * starts and after a row it did not take, and each claim asks again in its own transaction.
 */
export function railsClosed(
  desk: Pick<DeskRow, 'paused' | 'hours' | 'timezone'> | undefined,
  now: Date,
): 'gone' | 'paused' | 'outside_hours' | null {
  if (!desk) return 'gone';
  if (desk.paused) return 'paused';
  return isWorkingTime(desk.hours, desk.timezone, now) ? null : 'outside_hours';
}

/** Where the desk's day began: its acts since then count against its daily cap. */
export function capDayStart(desk: Pick<DeskRow, 'timezone'>, today: string): string {
  return midnightIn(desk.timezone, today).toISOString();
}

/** How many more acts the desk may do on its own today (none or fewer once the cap is used). */
export async function actsLeft(
  db: Kysely<Database>,
  desk: Pick<DeskRow, 'id' | 'timezone' | 'daily_cap'>,
  today: string,
): Promise<number> {
  return desk.daily_cap - (await countActedSince(db, desk.id, capDayStart(desk, today)));
}

export const CAP_MAX = 1000;
/** The longest working hours kept: every day listed one by one, with room to spare. */
export const HOURS_MAX = 200;
export const WINDOW_MAX = 365;

export function railsOf(desk: DeskRow): Rails {
  return { hours: desk.hours, daily_cap: desk.daily_cap, act_within_days: desk.act_within_days, paused: !!desk.paused };
}

/** The reason each given value is refused, keyed by field; empty when all are good. */
export function railErrors(input: Partial<Record<keyof Rails, unknown>>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (input.hours !== undefined) {
    const h = typeof input.hours === 'string' ? parseHours(input.hours) : { error: 'must be text' };
    if ('error' in h) errors.hours = h.error;
    // Drawn on every page of the rails and in every listing of desks: held as other typed text is.
    else if (longerThan((input.hours as string).trim(), HOURS_MAX))
      errors.hours = `must be at most ${HOURS_MAX} characters; list the days as a span, such as "mon-fri 09:00-17:00"`;
  }
  const whole = (field: 'daily_cap' | 'act_within_days', max: number, what: string) => {
    const v = input[field];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      errors[field] = `${echoedJson(v)} must be a whole number from 0 to ${max} (${what})`;
  };
  whole('daily_cap', CAP_MAX, 'acts the desk may do in one of its days');
  whole('act_within_days', WINDOW_MAX, 'days ahead of a due date');
  if (input.paused !== undefined && typeof input.paused !== 'boolean') errors.paused = 'must be true or false';
  return errors;
}

/** What a rail is called in the desk's log. */
const RAIL_WORDS: Record<Exclude<keyof Rails, 'paused'>, string> = {
  hours: 'working hours',
  daily_cap: 'daily cap',
  act_within_days: 'days ahead of a due date',
};

/**
 * Sets the given rails on the desk, or refuses all of them. A change is in the desk's log, who
 * made it and from what to what: a pause is the owner stopping the desk, and a person reading
 * the log later learns when it stood still and why (P-rails-2).
 */
export async function setRails(ctx: DeskContext, input: Partial<Rails>): Promise<Rails> {
  return atomically(ctx, async (tx) => {
    const desk = await requireDesk(tx.db, tx.desk.id);
    const before = railsOf(desk);
    const rails = await railsWritten(tx.db, desk, input);
    const who = actorName(tx.actor);
    if (rails.paused !== before.paused)
      await logEvent(
        tx,
        rails.paused ? 'desk_paused' : 'desk_resumed',
        rails.paused ? `${who} paused the desk: it does nothing on its own.` : `${who} resumed the desk.`,
        { by: who },
      );
    const changed = (Object.keys(RAIL_WORDS) as Array<keyof typeof RAIL_WORDS>).filter((f) => rails[f] !== before[f]);
    if (changed.length > 0)
      await logEvent(
        tx,
        'rails_changed',
        `${who} changed the desk's ${changed.map((f) => `${RAIL_WORDS[f]} from ${before[f]} to ${rails[f]}`).join(', ')}.`,
        { by: who, ...Object.fromEntries(changed.map((f) => [f, { from: before[f], to: rails[f] }])) },
      );
    return rails;
  });
}

/** Sets the given rails on the desk, or refuses all of them, and logs nothing: setRails does. */
export async function writeRails(db: Kysely<Database>, ref: string, input: Partial<Rails>): Promise<Rails> {
  return railsWritten(db, await requireDesk(db, ref), input);
}

async function railsWritten(db: Kysely<Database>, desk: DeskRow, input: Partial<Rails>): Promise<Rails> {
  const errors = railErrors(input);
  const fields = Object.keys(errors);
  if (fields.length > 0) {
    const list = fields.map((f) => `${f}: ${errors[f]}`);
    throw badRequest(`Nothing was changed. ${list.join('; ')}.`, { errors: list });
  }
  const patch: Partial<Pick<DeskRow, 'hours' | 'daily_cap' | 'act_within_days' | 'paused'>> = {};
  if (input.hours !== undefined) patch.hours = input.hours.trim().toLowerCase().replace(/\s+/g, ' ');
  if (input.daily_cap !== undefined) patch.daily_cap = input.daily_cap;
  if (input.act_within_days !== undefined) patch.act_within_days = input.act_within_days;
  if (input.paused !== undefined) patch.paused = input.paused ? 1 : 0;
  await updateDeskRails(db, desk.id, patch);
  return railsOf({ ...desk, ...patch });
}
