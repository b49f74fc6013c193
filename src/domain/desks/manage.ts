import { randomBytes } from 'node:crypto';
import { isSlug, slugFault } from './slug.ts';
import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../../store/schema.ts';
import { findDeskByRef, insertDesk, listDesks, removeDeskRows } from '../../store/repositories/desks.ts';
import { badRequest, DeskError } from '../errors.ts';
import { isTimeZone, spelledZone } from '../dates.ts';
import { isUniqueViolation } from '../../store/dialect.ts';
import { closeDirections, echoed, longerThan } from '../text.ts';
import { SETUP_TEXT_MAX } from '../limits.ts';

export interface NewDesk {
  name: string;
  slug: string;
  plan?: string;
  timezone?: string;
  currency?: string;
  broker?: string | null;
  hours?: string;
  daily_cap?: number;
  act_within_days?: number;
  paused?: boolean;
}

export function newDeskId(): string {
  return `dsk_${randomBytes(9).toString('base64url')}`;
}

const slugTaken = (slug: string) => `A desk with slug "${echoed(slug)}" already exists.`;

export async function createDesk(db: Kysely<Database>, input: NewDesk, now: string): Promise<DeskRow> {
  const timezone = spelledZone(input.timezone ?? 'UTC');
  const currency = (input.currency ?? 'GBP').toUpperCase();
  // Every problem at once, so one retry can fix them all (as the command line's own checks do).
  const problems: string[] = [];
  if (!input.name.trim()) problems.push('A desk needs a name, such as the business it runs.');
  else if (longerThan(closeDirections(input.name), SETUP_TEXT_MAX.name))
    problems.push(`A desk's name is at most ${SETUP_TEXT_MAX.name} characters.`);
  if (!isSlug(input.slug)) problems.push(`Slug ${slugFault(input.slug)}.`);
  const taken = isSlug(input.slug) && (await findDeskByRef(db, input.slug)) !== undefined;
  if (taken) problems.push(slugTaken(input.slug));
  if (!isTimeZone(timezone))
    problems.push(`"${echoed(timezone)}" is not a time zone; use an IANA name such as Europe/London.`);
  if (!/^[A-Z]{3}$/.test(currency))
    problems.push(`Currency "${echoed(input.currency)}" must be a three-letter code such as GBP.`);
  if (problems.length === 1) throw badRequest(problems[0]!, taken ? { field: 'slug' } : undefined);
  if (problems.length > 1)
    throw badRequest(`The new desk has ${problems.length} mistakes; nothing was made.`, { errors: problems });
  const insert = insertDesk(db, {
    id: newDeskId(),
    name: closeDirections(input.name),
    slug: input.slug,
    plan: input.plan ?? 'standard',
    status: 'active',
    timezone,
    currency,
    broker: input.broker ?? null,
    ...(input.hours !== undefined ? { hours: input.hours } : {}),
    ...(input.daily_cap !== undefined ? { daily_cap: input.daily_cap } : {}),
    ...(input.act_within_days !== undefined ? { act_within_days: input.act_within_days } : {}),
    ...(input.paused !== undefined ? { paused: input.paused ? 1 : 0 } : {}),
    open_count: 0,
    created_at: now,
  });
  try {
    return await insert;
  } catch (err) {
    // Two imports racing for one slug: the loser hears the same sentence as if it had come second.
    if (isUniqueViolation(err)) throw badRequest(slugTaken(input.slug), { field: 'slug' });
    throw err;
  }
}

export async function requireDesk(db: Kysely<Database>, ref: string): Promise<DeskRow> {
  const desk = await findDeskByRef(db, ref);
  if (!desk) throw new DeskError('not_found', `No desk "${echoed(ref)}". \`desk desks list\` shows the desks.`);
  return desk;
}

/** Removes the desk and everything on it. Its keys stay, so that programs holding them learn the desk is gone (403 no_desk). */
export async function deleteDesk(db: Kysely<Database>, ref: string): Promise<DeskRow> {
  const desk = await requireDesk(db, ref);
  await removeDeskRows(db, desk.id);
  return desk;
}

export { listDesks };
