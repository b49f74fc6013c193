import { describe, expect, it } from 'vitest';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { addDays, daysBetween } from '../../domain/dates.ts';
import { needsWindow } from './intents.ts';
import { placeDate, placeWindow, writtenDate } from './written-dates.ts';

// Dates as owners write them in a question, and where the answer puts them on the calendar.
// Today is the pinned clock's; every date expected is drawn from it.

const TODAY = TEST_NOW.slice(0, 10);
const at = (n: number) => addDays(TODAY, n);
/** "26 November": a date as an owner writes it, without its year. */
const written = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });
/** The same day and month a year on. */
const yearOn = (iso: string) => `${Number(iso.slice(0, 4)) + 1}${iso.slice(4)}`;

describe('writtenDate', () => {
  const date = (day: number, month: number, year: number | null, label: string, before = false) => ({
    kind: 'date',
    date: { day, month, year },
    before,
    label,
  });
  it.each([
    ['what is due by 3 april?', date(3, 4, null, '3 April')],
    ['what is due by april 3rd?', date(3, 4, null, '3 April')],
    ['what is due by the 3rd of april', date(3, 4, null, '3 April')],
    ['what is due by 3 apr 2027', date(3, 4, 2027, '3 April 2027')],
    ['what is due by april 3, 2027?', date(3, 4, 2027, '3 April 2027')],
    ['what is due 1 sept?', date(1, 9, null, '1 September')],
    ["what's due before 2026-04-03", date(3, 4, 2026, '2026-04-03', true)],
    ['what is due by 2026/04/03?', date(3, 4, 2026, '2026/04/03')],
    ['what is due by 2026-4-3?', date(3, 4, 2026, '2026-4-3')],
    ['what is due before the 3rd of april?', date(3, 4, null, '3 April', true)],
    ['what is due by 13/4?', date(13, 4, null, '13 April')],
    ['what is due by 4/13?', date(13, 4, null, '13 April')],
    ['what is due by 4/4?', date(4, 4, null, '4 April')],
    ['what is due by 13/4/27?', date(13, 4, 2027, '13 April 2027')],
    // Read as written; the answer says there is no such day.
    ['what is due by 31 february?', date(31, 2, null, '31 February')],
    ['what is due by 2026-02-30?', date(30, 2, 2026, '2026-02-30')],
    [
      'what is due by 3/4?',
      {
        kind: 'unclear',
        said: '3/4',
        readings: [
          { day: 3, month: 4, year: null },
          { day: 4, month: 3, year: null },
        ],
        before: false,
      },
    ],
    [
      "what's due before 4/3/2027",
      {
        kind: 'unclear',
        said: '4/3/2027',
        readings: [
          { day: 4, month: 3, year: 2027 },
          { day: 3, month: 4, year: 2027 },
        ],
        before: true,
      },
    ],
    ['what is due by 13/13?', null],
    ['what is due by 1/2/3?', null],
    ['what is due by 2026-04?', null],
    ['what is due in 3 days?', null],
    ['what is due this march?', null],
    ['what is due in 3 marketing days?', null],
    ['tell me about row 12', null],
  ])('%s', (question, expected) => {
    expect(writtenDate(question)).toEqual(expected);
  });
});

describe('placeDate', () => {
  const year = Number(TODAY.slice(0, 4));
  const dayOf = (iso: string, withYear = false) => ({
    day: Number(iso.slice(8)),
    month: Number(iso.slice(5, 7)),
    year: withYear ? Number(iso.slice(0, 4)) : null,
  });
  it.each([
    ['today, without a year, is today', TODAY, dayOf(TODAY), TODAY],
    ['a day later on, without a year, is that day', TODAY, dayOf(at(10)), at(10)],
    ['yesterday, without a year, is a year on', TODAY, dayOf(at(-1)), yearOn(at(-1))],
    ['a day with its year is that day, past or not', TODAY, dayOf(at(-400), true), at(-400)],
    ['31 February is none', TODAY, { day: 31, month: 2, year: null }, null],
    ['30 February with a year is none', TODAY, { day: 30, month: 2, year }, null],
    // 29 February is the next leap year's, across the eight years from 2096 to 2104.
    ['29 February in a leap year before it', '2028-01-10', { day: 29, month: 2, year: null }, '2028-02-29'],
    ['29 February after a leap day', '2028-03-01', { day: 29, month: 2, year: null }, '2032-02-29'],
    ['29 February across 2100', '2096-03-01', { day: 29, month: 2, year: null }, '2104-02-29'],
  ])('%s', (_, today, day, expected) => {
    expect(placeDate(today, day)).toBe(expected);
  });
});

describe('placeWindow', () => {
  it.each([
    [`by ${written(at(10))}`, { days: 10, window: `by ${written(at(10))}` }],
    [`before ${written(at(10))}`, { days: 9, window: `before ${written(at(10))}` }],
    [`by ${written(TODAY)}`, { days: 0, window: `by ${written(TODAY)}` }],
    [`before ${at(1)}`, { days: 0, window: `before ${at(1)}` }],
    [`by ${written(at(-1))}`, { days: daysBetween(TODAY, yearOn(at(-1))), window: `by ${written(at(-1))}` }],
    [`by ${at(-3)}`, { days: -3, window: `by ${at(-3)}` }],
    ['by 31 february', { ask: 'There is no 31 February on the calendar. Ask again with a date that is.' }],
    ['before 1900-01-01', { ask: 'Nothing can be due before 1900-01-01: no date comes before it.' }],
    ['by 1900-01-01', { days: daysBetween(TODAY, '1900-01-01'), window: 'by 1900-01-01' }],
    ['by 0026-01-01', { ask: 'There is no 0026-01-01 on the calendar. Ask again with a date that is.' }],
  ])('%s', (q, expected) => {
    expect(placeWindow(TODAY, needsWindow(q.toLowerCase()))).toEqual(expected);
  });

  it('asks which date "3/4" is, naming both on the calendar, rather than guess', () => {
    const april = placeDate(TODAY, { day: 3, month: 4, year: null });
    const march = placeDate(TODAY, { day: 4, month: 3, year: null });
    expect(needsWindow('what is due in the next 1 day')).toMatchObject({ days: 1, window: 'in the next 1 day' });
    expect(placeWindow(TODAY, needsWindow('before 3/4'))).toEqual({
      ask: `Which date is "3/4": 3 April (${april}) or 4 March (${march})? Ask again with the month's name ("before 3 April") or the date in full ("before ${april}").`,
    });
  });

  it.each([
    ['a weekday that is today', new Date(`${TODAY}T00:00:00Z`).getUTCDay(), 0],
    ['a weekday tomorrow', (new Date(`${TODAY}T00:00:00Z`).getUTCDay() + 1) % 7, 1],
    ['a weekday yesterday', (new Date(`${TODAY}T00:00:00Z`).getUTCDay() + 6) % 7, 6],
  ])('%s is the first such day on or after today', (_, weekday, days) => {
    expect(placeWindow(TODAY, { days: null, window: 'by then', weekday })).toEqual({ days, window: 'by then' });
  });

  it('a window in days is as asked', () => {
    expect(placeWindow(TODAY, { days: 7, window: 'in the next 7 days' })).toEqual({
      days: 7,
      window: 'in the next 7 days',
    });
  });
});
