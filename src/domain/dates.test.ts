import { describe, expect, it } from 'vitest';
import { addDays, dateIn, daysBetween, midnightIn, resolveDate } from './dates.ts';

describe("calendar dates in a desk's timezone", () => {
  it('midnight is the instant the date begins in the zone, across DST changes and at both ends of the day', () => {
    expect(midnightIn('UTC', '2026-11-22').toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(midnightIn('Europe/London', '2026-07-01').toISOString()).toBe('2026-06-30T23:00:00.000Z');
    expect(midnightIn('Europe/London', '2026-03-29').toISOString()).toBe('2026-03-29T00:00:00.000Z'); // clocks go forward at 01:00
    expect(midnightIn('Europe/London', '2026-03-30').toISOString()).toBe('2026-03-29T23:00:00.000Z');
    expect(midnightIn('Pacific/Kiritimati', '2026-11-23').toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(midnightIn('Pacific/Pago_Pago', '2026-11-21').toISOString()).toBe('2026-11-21T11:00:00.000Z');
  });

  it('a kept midnight cannot be changed through the value handed out', () => {
    const first = midnightIn('Europe/Paris', '2026-11-22');
    first.setTime(0);
    expect(midnightIn('Europe/Paris', '2026-11-22').toISOString()).toBe('2026-11-21T23:00:00.000Z');
  });

  it('today, day counts and business-file offsets agree with one another', () => {
    const at = new Date('2026-11-22T10:30:00.000Z');
    expect(dateIn('Pacific/Kiritimati', at)).toBe('2026-11-23');
    expect(dateIn('Pacific/Pago_Pago', at)).toBe('2026-11-21');
    expect(daysBetween('2026-11-21', addDays('2026-11-21', 400))).toBe(400);
    expect(resolveDate('-12d', '2026-03-01')).toBe('2026-02-17');
    expect(resolveDate('today', '2026-03-01')).toBe('2026-03-01');
    expect(resolveDate('2026-02-30', '2026-03-01')).toBeNull();
  });
});
