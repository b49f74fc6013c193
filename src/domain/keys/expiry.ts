import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { keysOf, setKeyExpiry } from '../../store/repositories/desks.ts';
import { addDays, dateIn, isIsoDate, midnightIn } from '../dates.ts';
import { badRequest } from '../errors.ts';

// A key's expiry as people give it: the last day it works, on the desk's own calendar. It is
// stored as the instant it stops working, midnight after that day in the desk's time zone.

export function expiryAfter(timezone: string, lastDay: string): string {
  const after = addDays(lastDay, 1);
  // Dates end at 9999-12-31: a key cannot work through that day and stop after it.
  if (!isIsoDate(after))
    throw badRequest('A key can work until 9999-12-30 at the latest; a key given no last day never expires.', {
      field: 'expires',
    });
  return midnightIn(timezone, after).toISOString();
}

/** The last day a key works, as the owner gave it. */
export function lastDayOf(timezone: string, expiresAt: string): string {
  return dateIn(timezone, new Date(new Date(expiresAt).getTime() - 1));
}

/**
 * The desk's calendar moves to another time zone: each key keeps the last day the owner gave it,
 * and so stops at the midnight after that day in the new zone.
 */
export async function keepKeysLastDays(db: Kysely<Database>, deskId: string, from: string, to: string): Promise<void> {
  if (from === to) return;
  for (const k of await keysOf(db, deskId)) {
    if (k.expires_at === null) continue;
    await setKeyExpiry(db, k.id, midnightIn(to, addDays(lastDayOf(from, k.expires_at), 1)).toISOString());
  }
}
