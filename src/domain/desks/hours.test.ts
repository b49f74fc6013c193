import { describe, expect, it } from 'vitest';
import { isWorkingTime, parseHours, workingDayFrom } from './hours.ts';

// Instants are fixed in UTC and read in a zone, so the table holds on any machine and any day.

describe('working hours', () => {
  it.each([
    // 2026-11-23 is a Monday.
    ['mon-fri 09:00-17:00', 'Europe/London', '2026-11-23T09:00:00Z', true],
    ['mon-fri 09:00-17:00', 'Europe/London', '2026-11-23T16:59:00Z', true],
    ['mon-fri 09:00-17:00', 'Europe/London', '2026-11-23T17:00:00Z', false],
    ['mon-fri 09:00-17:00', 'Europe/London', '2026-11-23T08:59:00Z', false],
    ['mon-fri 09:00-17:00', 'Europe/London', '2026-11-22T12:00:00Z', false],
    // New York is five hours behind in November: 14:00 UTC is 09:00 there.
    ['mon-fri 09:00-17:00', 'America/New_York', '2026-11-23T13:59:00Z', false],
    ['mon-fri 09:00-17:00', 'America/New_York', '2026-11-23T14:00:00Z', true],
    ['sat,sun 10:00-12:00', 'UTC', '2026-11-22T11:00:00Z', true],
    ['sat,sun 10:00-12:00', 'UTC', '2026-11-23T11:00:00Z', false],
    ['fri-mon 08:00-09:00', 'UTC', '2026-11-22T08:30:00Z', true],
    ['fri-mon 08:00-09:00', 'UTC', '2026-11-24T08:30:00Z', false],
    ['mon 22:00-02:00', 'UTC', '2026-11-24T01:00:00Z', true],
    ['mon 22:00-02:00', 'UTC', '2026-11-23T01:00:00Z', false],
    ['always', 'Asia/Tokyo', '2026-11-22T03:00:00Z', true],
    [' Always ', 'UTC', '2026-11-22T03:00:00Z', true],
    ['Monday-Friday 09:00-17:00', 'UTC', '2026-11-27T10:00:00Z', true],
    ['tues,weds,thurs 09:00-17:00', 'UTC', '2026-11-25T10:00:00Z', true],
    ['tues,weds,thurs 09:00-17:00', 'UTC', '2026-11-23T10:00:00Z', false],
  ])('%s in %s at %s is %s', (hours, tz, at, expected) => {
    expect(isWorkingTime(hours, tz, new Date(at))).toBe(expected);
  });

  it.each([
    '',
    'weekdays',
    'mon-fri 9-5',
    'mon-fri 09:00',
    'mon-fry 09:00-17:00',
    'mon-fri 25:00-26:00',
    'mon 09:00-09:00',
    'mon--fri 09:00-17:00',
    'monxyz-fri 09:00-17:00',
    'mon-fridays 09:00-17:00',
    'mo-fr 09:00-17:00',
    'mon-fri 123:00-17:00',
    'mon-fri 9:0-17:00',
  ])('refuses %j with the way to write it', (text) => {
    const h = parseHours(text);
    expect('error' in h && h.error).toMatch(/"mon-fri 09:00-17:00", or "always"/);
  });
});

it('reads an hour written with one digit as with two', () => {
  expect(parseHours('mon-fri 9:00-17:30')).toEqual(parseHours('mon-fri 09:00-17:30'));
  expect(parseHours('sat 8:15-9:45')).toMatchObject({ from: 8 * 60 + 15, to: 9 * 60 + 45 });
});

describe('the first day the desk can act', () => {
  it.each([
    // 2026-11-27 is a Friday, 2026-11-28 a Saturday.
    ['mon-fri 09:00-17:00', '2026-11-27', 0, '2026-11-27'],
    ['mon-fri 09:00-17:00', '2026-11-27', 16 * 60 + 59, '2026-11-27'],
    ['mon-fri 09:00-17:00', '2026-11-27', 17 * 60, '2026-11-30'],
    ['mon-fri 09:00-17:00', '2026-11-28', 0, '2026-11-30'],
    ['sat,sun 10:00-12:00', '2026-11-23', 0, '2026-11-28'],
    // A span past midnight: Monday evening, and Tuesday's small hours after it.
    ['mon 22:00-02:00', '2026-11-24', 60, '2026-11-24'],
    ['mon 22:00-02:00', '2026-11-24', 120, '2026-11-30'],
    ['always', '2026-11-28', 23 * 60, '2026-11-28'],
    ['not hours', '2026-11-28', 0, '2026-11-28'],
  ])('%s from %s after minute %i is %s', (hours, day, after, expected) => {
    expect(workingDayFrom(hours, day, after)).toBe(expected);
  });
});
