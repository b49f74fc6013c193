import { addDays, dateIn, midnightIn } from '../dates.ts';

// A key's expiry as people give it: the last day it works, on the desk's own calendar. It is
// stored as the instant it stops working, midnight after that day in the desk's time zone.

export function expiryAfter(timezone: string, lastDay: string): string {
  return midnightIn(timezone, addDays(lastDay, 1)).toISOString();
}

/** The last day a key works, as the owner gave it. */
export function lastDayOf(timezone: string, expiresAt: string): string {
  return dateIn(timezone, new Date(new Date(expiresAt).getTime() - 1));
}
