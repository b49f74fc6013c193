import { describe, expect, it } from 'vitest';
import { dateIn, midnightIn } from './dates.ts';

// The instant a desk's day begins, in zones whose clocks change at or near midnight. The dates
// are the zones' own changes, not "today": each test reads them from the zone.

describe('midnightIn', () => {
  it.each([
    // Clocks go forward at midnight: 00:00 never happens, and the day begins at 01:00.
    ['America/Santiago', '2027-09-05', '2027-09-05T04:00:00.000Z'],
    ['America/Asuncion', '2024-10-06', '2024-10-06T04:00:00.000Z'],
    ['America/Havana', '2027-03-14', '2027-03-14T05:00:00.000Z'],
    // Clocks go back at midnight: the day begins at the first 00:00.
    ['America/Santiago', '2027-04-04', '2027-04-04T04:00:00.000Z'],
    // Changes away from midnight, and zones far from UTC.
    ['America/Los_Angeles', '2027-03-14', '2027-03-14T08:00:00.000Z'],
    ['America/Los_Angeles', '2027-11-07', '2027-11-07T07:00:00.000Z'],
    ['Pacific/Kiritimati', '2028-02-29', '2028-02-28T10:00:00.000Z'],
    ['Pacific/Pago_Pago', '2028-02-29', '2028-02-29T11:00:00.000Z'],
  ])('%s %s begins at %s', (zone, date, start) => {
    const at = midnightIn(zone, date);
    expect(at.toISOString()).toBe(start);
    expect(dateIn(zone, at)).toBe(date);
    expect(dateIn(zone, new Date(at.getTime() - 1))).not.toBe(date);
  });
});
