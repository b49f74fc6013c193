// Calendar arithmetic on YYYY-MM-DD strings. "Today" is always the desk's own date in its
// timezone (D9), computed from an injected clock, never from the system clock inside a rule.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first day the desk knows: earlier is a typed year gone wrong (0026 for 2026), and no obligation. */
export const FIRST_DAY = '1900-01-01';
/** A day as a span of time: the desk's rests (an address, a row) last this long. */
export const DAY_MS = 86_400_000;
/** The last day a date can be written YYYY-MM-DD. */
export const LAST_DAY = '9999-12-31';

/** Written as a date is, `YYYY-MM-DD`, whether or not the calendar has that day. */
export const isDateShaped = (s: string): boolean => DATE_RE.test(s);

/** A real day, `YYYY-MM-DD`, from FIRST_DAY to 9999-12-31. */
export function isIsoDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = DATE_RE.exec(s);
  if (!m || s < FIRST_DAY) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** A real calendar day written as a date but before FIRST_DAY: a day the desk does not keep, not a mistyped one. */
export function isBeforeFirstDay(text: string): boolean {
  const t = text.trim();
  if (!isDateShaped(t) || t >= FIRST_DAY) return false;
  const d = new Date(`${t}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === t;
}

/**
 * Zones IANA has renamed whose old name ICU still gives as the zone's own (CLDR keeps them for
 * stability; its `iana` attribute names the current one). A zone typed by its current name in
 * another case is stored by that name, not by the old one ICU resolves it to.
 */
const RENAMED: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/**
 * A time zone as IANA spells it when it was typed in another case ("utc", "europe/kyiv",
 * "ASIA/KOLKATA"), so that one zone is stored one way; an alias typed as spelled (US/Pacific) is
 * kept as given. Every IANA name with a "/" has a small letter and a capital, so an alias typed
 * all in one case ("us/pacific") was not spelled as one, and is stored as IANA's current name for
 * the zone it names (America/Los_Angeles). Unknown zones as given.
 */
export function spelledZone(tz: string): string {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return tz;
  }
  const current = RENAMED[resolved] ?? resolved;
  for (const name of [current, resolved]) if (name.toLowerCase() === tz.toLowerCase()) return name;
  const oneCase = tz === tz.toLowerCase() || (tz.includes('/') && tz === tz.toUpperCase());
  return oneCase ? current : tz;
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The calendar date at `now` in `timeZone`. */
export function dateIn(timeZone: string, now: Date): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(now);
}

const todays = new Map<string, { minute: number; date: string }>();
/**
 * The calendar date now in `timeZone`, as dateIn gives it, formatted once a minute per zone:
 * every zone's midnight falls on a whole minute, so the date cannot change within one.
 */
export function todayIn(timeZone: string, now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const known = todays.get(timeZone);
  if (known && known.minute === minute) return known.date;
  const date = dateIn(timeZone, now);
  todays.set(timeZone, { minute, date });
  return date;
}

const storedDates = new Map<string, string>();
const STORED_DATES_KEPT = 10_000;
/**
 * The calendar date in `timeZone` of a stored instant (an ISO text): a page of rows asks it of
 * the same few instants again and again, and the answer never changes.
 */
export function dateOfInstant(timeZone: string, instant: string): string {
  const key = `${timeZone} ${instant}`;
  let date = storedDates.get(key);
  if (date === undefined) {
    date = dateIn(timeZone, new Date(instant));
    if (storedDates.size >= STORED_DATES_KEPT) storedDates.clear();
    storedDates.set(key, date);
  }
  return date;
}

/** A stored instant as `YYYY-MM-DD HH:MM` on the desk's clock, for a person to read. */
export function minuteOfInstant(timeZone: string, instant: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  return dateTimeIn(timeZone, at).slice(0, 16).replace('T', ' ');
}

/** The weekday (0 = Sunday) and minute of the day at `at` on the zone's clock. */
export function clockIn(timeZone: string, at: Date): { day: number; minute: number } {
  const local = dateTimeIn(timeZone, at);
  return {
    day: new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay(),
    minute: Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16)),
  };
}

/** A stored date or instant as a date on the desk's calendar: a plain date already is one. */
export function dateOfStored(timeZone: string, value: string): string {
  return value.length === 10 ? value : dateOfInstant(timeZone, value);
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** `days` on from `date`, or 9999-12-31 where that is past it: the farthest a row can be due. */
export function addDaysUpToLast(date: string, days: number): string {
  const d = addDays(date, days);
  return d.startsWith('+') ? LAST_DAY : d;
}

/**
 * The day number of a YYYY-MM-DD date, 1970-01-01 being 0, by the civil calendar's arithmetic:
 * a list of 50 rows asks this a few hundred times, and parsing a Date each time cost more than
 * the rest of the row.
 */
function dayNumber(date: string): number {
  if (date.length !== 10 || date[4] !== '-' || date[7] !== '-') return Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  const m = Number(date.slice(5, 7));
  const y = Number(date.slice(0, 4)) - (m <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + Number(date.slice(8, 10)) - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** b - a in whole days. */
export function daysBetween(a: string, b: string): number {
  return Math.round(dayNumber(b) - dayNumber(a));
}

const midnights = new Map<string, Date>();
const MIDNIGHTS_KEPT = 10_000;

/** The first minute from `lo` (before `date` in the zone) to `hi` (on it) whose date is `date`. */
function firstMinuteOn(timeZone: string, date: string, lo: number, hi: number): number {
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (dateIn(timeZone, new Date(mid)) < date) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The UTC instant at which `date` begins in `timeZone`. */
export function midnightIn(timeZone: string, date: string): Date {
  // Asked on every read that counts today's closings: the answer for a zone and date never
  // changes, so it is kept (a bounded map, cleared whole when full).
  const key = `${timeZone} ${date}`;
  const known = midnights.get(key);
  if (known) return new Date(known.getTime());
  // Start from UTC midnight and correct by the zone's offset at that instant (twice, for DST edges).
  let guess = Date.parse(`${date}T00:00:00Z`);
  for (let i = 0; i < 2; i++) {
    const local = dateTimeIn(timeZone, new Date(guess));
    const diff = Date.parse(`${local}Z`) - Date.parse(`${date}T00:00:00Z`);
    guess -= diff;
  }
  // Where the clocks go forward at midnight (Santiago, Asunción, Havana), no instant reads
  // 00:00 on that date and the guess lands in the hour before it, on the day before; where they
  // went back from 01:00 to 00:00 (Amman, Gaza until 2021), 00:00 came twice and the guess is
  // the second. Either way the day begins at the first minute whose date is `date`.
  if (dateIn(timeZone, new Date(guess)) < date) guess = firstMinuteOn(timeZone, date, guess, guess + 86_400_000);
  else if (dateIn(timeZone, new Date(guess - 60_000)) === date)
    guess = firstMinuteOn(timeZone, date, guess - 86_400_000, guess);
  if (midnights.size >= MIDNIGHTS_KEPT) midnights.clear();
  midnights.set(key, new Date(guess));
  return new Date(guess);
}

const dateTimeFormatters = new Map<string, Intl.DateTimeFormat>();
function dateTimeIn(timeZone: string, at: Date): string {
  let f = dateTimeFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    dateTimeFormatters.set(timeZone, f);
  }
  const parts = f.formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
}

/**
 * Reads a business-file date: `YYYY-MM-DD`, `today`, or an offset such as `+3d` / `-12d`.
 * Returns null when the text is not a date.
 */
export function resolveDate(text: string, today: string): string | null {
  const t = text.trim();
  if (t === 'today') return today;
  // Seven digits reach past either end of the days kept from any today, and stay within what a Date holds.
  const m = /^([+-])(\d{1,7})d$/.exec(t);
  const day = m ? addDays(today, (m[1] === '-' ? -1 : 1) * Number(m[2])) : t;
  return isIsoDate(day) ? day : null;
}

/** An offset (`+100000d`) well written that lands on no day the desk keeps. */
export function isOffsetOutOfRange(text: string): boolean {
  return /^[+-]\d+d$/.test(text.trim());
}
