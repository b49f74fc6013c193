import { daysBetween, FIRST_DAY, isIsoDate } from '../../domain/dates.ts';

// Dates as an owner writes them in a question: "2026-04-03" (or 2026/4/3), "3 April",
// "April 3rd", "the 3rd of April 2027", "13/4". A date without a year is the next such date on
// or after the desk's today, which only the answer knows, so a question gives back the date as
// written and the answer places it. "3/4" is 3 April to some and 4 March to others, and a desk
// has no locale to settle it: such a date is not guessed at, and the answer asks which is meant
// (P-chat-13).

export interface DayOfYear {
  day: number;
  month: number;
  year: number | null;
}

export type WrittenDate =
  /** `label` is how the answer names the date: as written when ISO, else "3 April [2027]". */
  | { kind: 'date'; date: DayOfYear; before: boolean; label: string }
  | { kind: 'unclear'; said: string; readings: [DayOfYear, DayOfYear]; before: boolean };

/** The window a question names, as it names it: a weekday or a date is placed by the answer. */
export interface AskedWindow {
  days: number | null;
  window: string;
  weekday?: number;
  date?: WrittenDate;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(?:,?\\s+(\\d{4}))?';

const ISO = /(?<![\d/-])(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?![\d/-])/;
const DAY_MONTH = new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\b${YEAR}`);
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s+${DAY}\\b${YEAR}`);
const NUMERIC = /(?<![\d/-])(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?![\d/-])/;

function monthOf(name: string): number {
  return MONTHS.findIndex((m) => m.toLowerCase().startsWith(name.slice(0, 3))) + 1;
}

function named(d: DayOfYear): string {
  return `${d.day} ${MONTHS[d.month - 1]}${d.year === null ? '' : ` ${d.year}`}`;
}

/** "before 3 April" ends the day before; "by", "until", "on" or nothing end on it. */
function isBefore(q: string, at: number): boolean {
  return /\bbefore\s+(?:the\s+)?$/.test(q.slice(0, at));
}

/** The first written date in a lower-case question, or null when it holds none. */
export function writtenDate(q: string): WrittenDate | null {
  const iso = ISO.exec(q);
  if (iso) {
    const date = { day: Number(iso[4]), month: Number(iso[3]), year: Number(iso[1]) };
    return { kind: 'date', date, before: isBefore(q, iso.index), label: iso[0] };
  }
  const dm = DAY_MONTH.exec(q);
  const md = MONTH_DAY.exec(q);
  const first = dm && md ? (dm.index <= md.index ? dm : md) : (dm ?? md);
  if (first) {
    const [day, month] = first === dm ? [first[1]!, first[2]!] : [first[2]!, first[1]!];
    const date = { day: Number(day), month: monthOf(month), year: first[3] ? Number(first[3]) : null };
    return { kind: 'date', date, before: isBefore(q, first.index), label: named(date) };
  }
  const n = NUMERIC.exec(q);
  if (!n) return null;
  const [a, b] = [Number(n[1]), Number(n[2])];
  const year = n[3] === undefined ? null : Number(n[3].length === 2 ? `20${n[3]}` : n[3]);
  const readings = [
    { day: a, month: b, year },
    { day: b, month: a, year },
  ].filter((d, i) => d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31 && (i === 0 || a !== b));
  const before = isBefore(q, n.index);
  if (readings.length === 2) return { kind: 'unclear', said: n[0], readings: [readings[0]!, readings[1]!], before };
  if (readings.length === 1) return { kind: 'date', date: readings[0]!, before, label: named(readings[0]!) };
  return null;
}

function isoOf(year: number, d: DayOfYear): string | null {
  const s = `${String(year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
  return isIsoDate(s) ? s : null;
}

/** The date on the calendar: its own year's, or the next on or after today; null when there is none. */
export function placeDate(today: string, d: DayOfYear): string | null {
  if (d.year !== null) return isoOf(d.year, d);
  const from = Number(today.slice(0, 4));
  // Eight years always reach the next 29 February, 2100 and its like not being leap years.
  for (let year = from; year <= from + 8; year++) {
    const date = isoOf(year, d);
    if (date !== null && date >= today) return date;
  }
  return null;
}

/** Days from today to the window's last day, or what to ask when the date is unclear or not one. */
export function placeWindow(today: string, w: AskedWindow): { days: number | null; window: string } | { ask: string } {
  const d = w.date;
  if (d?.kind === 'unclear') {
    const [x, y] = d.readings.map((r) => ({ name: named(r), iso: placeDate(today, r) }));
    const by = d.before ? 'before' : 'by';
    return {
      ask: `Which date is "${d.said}": ${x!.name} (${x!.iso}) or ${y!.name} (${y!.iso})? Ask again with the month's name ("${by} ${x!.name}") or the date in full ("${by} ${x!.iso}").`,
    };
  }
  if (d?.kind === 'date') {
    const date = placeDate(today, d.date);
    if (date === null) return { ask: `There is no ${d.label} on the calendar. Ask again with a date that is.` };
    // The calendar's first day has no day before it for a window to end on.
    if (d.before && date === FIRST_DAY)
      return { ask: `Nothing can be due before ${d.label}: no date comes before it.` };
    return { days: daysBetween(today, date) - (d.before ? 1 : 0), window: w.window };
  }
  if (w.weekday === undefined) return { days: w.days, window: w.window };
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  return { days: (w.weekday - weekday + 7) % 7, window: w.window };
}
