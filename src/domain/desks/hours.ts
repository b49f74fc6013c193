// Working hours for what a desk does on its own, in the desk's timezone: "always", or days and
// a span such as "mon-fri 09:00-17:00" or "mon,wed,sat 08:30-12:00". A span ends before its
// end minute; an end before its start runs past midnight into the next day.

import { clockIn } from '../dates.ts';
import { echoed } from '../text.ts';

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

export const DEFAULT_HOURS = 'mon-fri 09:00-17:00';

export interface Hours {
  always: boolean;
  /** Days the span starts on, 0 = Sunday. */
  days: Set<number>;
  /** Minutes after midnight. */
  from: number;
  to: number;
}

const HOW = 'write days and times such as "mon-fri 09:00-17:00", or "always"';

const FULL = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** 0 = Sunday for a day's name, short ("mon") or long ("monday", "tues", "weds"); -1 for any other word. */
function dayIndex(d: string): number {
  if (d === 'weds') return 3;
  return d.length >= 3 ? FULL.findIndex((day) => day.startsWith(d)) : -1;
}

function minutes(t: string): number | null {
  // "9:00" is read as "09:00", as people write it.
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : t === '24:00' ? 1440 : null;
}

/** The hours, or the reason the text is not hours (to be shown after the field's name). */
export function parseHours(text: string): Hours | { error: string } {
  const s = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (s === 'always') return { always: true, days: new Set(DAYS.keys()), from: 0, to: 1440 };
  const bad = { error: `"${echoed(text)}" is not working hours; ${HOW}` };
  const m = /^([a-z,-]+) (\d?\d:\d\d)-(\d?\d:\d\d)$/.exec(s);
  if (!m) return bad;
  const days = new Set<number>();
  for (const part of m[1]!.split(',')) {
    const [a, b, extra] = part.split('-');
    if (extra !== undefined || !a) return bad;
    const start = dayIndex(a);
    const end = b === undefined ? start : dayIndex(b);
    if (start < 0 || end < 0)
      return { error: `"${echoed(text)}" names a day that is not one of ${DAYS.join(', ')}; ${HOW}` };
    for (let d = start; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === end) break;
    }
  }
  const from = minutes(m[2]!);
  const to = minutes(m[3]!);
  if (from === null || to === null || from === 1440)
    return { error: `"${echoed(text)}" has a time that is not HH:MM; ${HOW}` };
  if (from === to) return { error: `"${echoed(text)}" starts and ends at the same time; ${HOW}` };
  return { always: false, days, from, to };
}

/** Whether `now` falls inside the hours, in the desk's timezone. */
export function withinHours(hours: Hours, timeZone: string, now: Date): boolean {
  if (hours.always) return true;
  const { day, minute } = clockIn(timeZone, now);
  if (hours.from < hours.to) return hours.days.has(day) && minute >= hours.from && minute < hours.to;
  // Past midnight: the evening of a listed day, or the small hours after one.
  return (hours.days.has(day) && minute >= hours.from) || (hours.days.has((day + 6) % 7) && minute < hours.to);
}

/** Stored hours are checked when written; a stored value that no longer reads is taken as never. */
export function isWorkingTime(text: string, timeZone: string, now: Date): boolean {
  const h = parseHours(text);
  return 'error' in h ? false : withinHours(h, timeZone, now);
}

/**
 * The first day, on or after `day` (a desk date), with working time left in it after minute
 * `after` of that day (0 for the whole day): the day the desk can next act on its own.
 */
export function workingDayFrom(text: string, day: string, after = 0): string {
  const h = parseHours(text);
  if ('error' in h || h.always) return day;
  let d = day;
  let m = after;
  for (let i = 0; i < 8; i++) {
    const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
    const evening = h.days.has(wd) && (h.from < h.to ? m < h.to : true);
    const smallHours = h.from > h.to && h.days.has((wd + 6) % 7) && m < h.to;
    if (evening || smallHours) return d;
    d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    m = 0;
  }
  return day;
}
