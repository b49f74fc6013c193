import { describe, expect, it } from 'vitest';
import {
  addDays,
  addDaysUpToLast,
  clockIn,
  dateIn,
  dateOfInstant,
  daysBetween,
  isBeforeFirstDay,
  isIsoDate,
  midnightIn,
  minuteOfInstant,
  resolveDate,
  isOffsetOutOfRange,
  spelledZone,
  todayIn,
} from './dates.ts';

describe("calendar dates in a desk's timezone", () => {
  it('midnight is the instant the date begins in the zone, across DST changes and at both ends of the day', () => {
    expect(midnightIn('UTC', '2026-11-22').toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(midnightIn('Europe/London', '2026-07-01').toISOString()).toBe('2026-06-30T23:00:00.000Z');
    expect(midnightIn('Europe/London', '2026-03-29').toISOString()).toBe('2026-03-29T00:00:00.000Z'); // clocks go forward at 01:00
    expect(midnightIn('Europe/London', '2026-03-30').toISOString()).toBe('2026-03-29T23:00:00.000Z');
    expect(midnightIn('Pacific/Kiritimati', '2026-11-23').toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(midnightIn('Pacific/Pago_Pago', '2026-11-21').toISOString()).toBe('2026-11-21T11:00:00.000Z');
  });

  it('is the first minute of the date where 00:00 came twice or not at all', () => {
    // Clocks went back from 01:00 to 00:00 (Amman, 29 October 2021): the date began at the first 00:00.
    expect(midnightIn('Asia/Amman', '2021-10-29').toISOString()).toBe('2021-10-28T21:00:00.000Z');
    // Clocks went forward at midnight (Santiago, 6 September 2026): the date began at 01:00.
    expect(midnightIn('America/Santiago', '2026-09-06').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    for (const [zone, date] of [
      ['Asia/Amman', '2021-10-29'],
      ['Asia/Gaza', '2020-10-24'],
      ['America/Santiago', '2026-09-06'],
      ['America/Havana', '2026-03-08'],
      ['Europe/London', '2026-10-25'],
    ] as const) {
      const start = midnightIn(zone, date).getTime();
      expect(dateIn(zone, new Date(start)), zone).toBe(date);
      expect(dateIn(zone, new Date(start - 60_000)) < date, zone).toBe(true);
    }
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

describe('day arithmetic without Date parsing', () => {
  it('agrees with Date.parse over four centuries of dates, leap days and all', () => {
    const byParse = (a: string, b: string) =>
      Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
    const start = Date.parse('1899-12-25T00:00:00Z');
    for (let i = 0; i < 400 * 366; i += 7) {
      const a = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
      const b = new Date(start + ((i * 13) % 150_000) * 86_400_000).toISOString().slice(0, 10);
      expect(daysBetween(a, b)).toBe(byParse(a, b));
    }
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2100-02-28', '2100-03-01')).toBe(1);
    expect(daysBetween('2000-02-28', '2000-03-01')).toBe(2);
  });

  it('gives the same date for a stored instant as for the instant itself', () => {
    for (const tz of ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kathmandu']) {
      for (const at of ['2026-11-22T10:00:00.000Z', '2026-03-29T00:30:00.000Z', '2026-12-31T23:59:59.999Z']) {
        expect(dateOfInstant(tz, at)).toBe(dateIn(tz, new Date(at)));
        expect(dateOfInstant(tz, at)).toBe(dateIn(tz, new Date(at)));
      }
    }
  });
});

describe('today, formatted once a minute', () => {
  it("turns at each zone's midnight exactly as dateIn does, to the millisecond", () => {
    for (const tz of ['UTC', 'Pacific/Kiritimati', 'Pacific/Chatham', 'Asia/Kathmandu', 'America/St_Johns']) {
      const midnight = midnightIn(tz, '2026-11-23').getTime();
      for (const offset of [-60_001, -60_000, -1, 0, 1, 59_999, 60_000]) {
        const at = new Date(midnight + offset);
        expect(todayIn(tz, at), `${tz} ${at.toISOString()}`).toBe(dateIn(tz, at));
      }
    }
  });
});

describe("an instant on the desk's clock", () => {
  it('is the date and minute in the zone, with a 24-hour clock, on either side of midnight', () => {
    // 11:30 UTC is 01:30 the next day at UTC+14 and 00:30 the same day at UTC-11.
    expect(minuteOfInstant('Pacific/Kiritimati', '2026-11-20T11:30:59.000Z')).toBe('2026-11-21 01:30');
    expect(minuteOfInstant('Pacific/Pago_Pago', '2026-11-20T11:30:00.000Z')).toBe('2026-11-20 00:30');
    expect(minuteOfInstant('UTC', '2026-11-20T00:05:00.000Z')).toBe('2026-11-20 00:05');
    expect(minuteOfInstant('UTC', 'not a time')).toBe('not a time');
  });

  it('is the weekday and minute of the day in the zone, for the working hours', () => {
    // 2026-11-20 is a Friday: 11:30 UTC is Saturday 01:30 at UTC+14, Friday 00:30 at UTC-11,
    // and Friday 17:00 at UTC+5:30.
    expect(clockIn('Pacific/Kiritimati', new Date('2026-11-20T11:30:59.000Z'))).toEqual({ day: 6, minute: 90 });
    expect(clockIn('Pacific/Pago_Pago', new Date('2026-11-20T11:30:00.000Z'))).toEqual({ day: 5, minute: 30 });
    expect(clockIn('Asia/Kolkata', new Date('2026-11-20T11:30:00.000Z'))).toEqual({ day: 5, minute: 17 * 60 });
    expect(clockIn('UTC', new Date('2026-11-22T23:59:00.000Z'))).toEqual({ day: 0, minute: 23 * 60 + 59 });
  });
});

// The instant a desk's day begins, in zones whose clocks change at or near midnight. The dates
// are the zones' own changes, not "today": each test reads them from the zone.

describe('midnightIn where the clocks change at or near midnight', () => {
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

describe('the days the desk knows', () => {
  it('run from 1900-01-01 to 9999-12-31, typed or reached by an offset', () => {
    expect([isIsoDate('1900-01-01'), isIsoDate('9999-12-31')]).toEqual([true, true]);
    expect([isIsoDate('1899-12-31'), isIsoDate('0026-05-01'), isIsoDate('0000-01-01')]).toEqual([false, false, false]);
    expect(resolveDate('-99999d', '2026-11-28')).toBeNull();
    expect(resolveDate('+99999d', '2026-11-28')).toBe(addDays('2026-11-28', 99_999));
    expect(resolveDate('+99999d', '9999-01-01')).toBeNull();
    // Any offset that lands on a day kept is taken, however many days it counts.
    expect(resolveDate('+100000d', '2026-11-28')).toBe(addDays('2026-11-28', 100_000));
    expect(resolveDate('+2958463d', '1900-01-01')).toBe('9999-12-31');
    expect(resolveDate('-2958463d', '9999-12-31')).toBe('1900-01-01');
    for (const far of ['+2958464d', '+9999999d', '+99999999999d', '-2958464d']) {
      expect(resolveDate(far, far.startsWith('+') ? '1900-01-01' : '9999-12-31'), far).toBeNull();
      expect(isOffsetOutOfRange(far), far).toBe(true);
    }
    expect([isOffsetOutOfRange('2026-13-01'), isOffsetOutOfRange('+3 d'), isOffsetOutOfRange(' +3d ')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('tells a real day before the first one from text that is no day at all', () => {
    for (const early of ['1899-12-31', ' 0026-05-01 ', '0001-01-01', '0000-01-01'])
      expect(isBeforeFirstDay(early), early).toBe(true);
    for (const other of ['1900-01-01', '2026-11-28', '1899-02-29', '1899-13-01', 'soon', '-3d', '18991231'])
      expect(isBeforeFirstDay(other), other).toBe(false);
  });
});

describe('a time zone typed in another case', () => {
  it('is spelled as IANA spells it, while an alias typed as spelled and an unknown zone stay as given', () => {
    expect(spelledZone('utc')).toBe('UTC');
    expect(spelledZone('europe/london')).toBe('Europe/London');
    expect(spelledZone('Europe/London')).toBe('Europe/London');
    expect(spelledZone('US/Pacific')).toBe('US/Pacific');
    // An alias typed all in one case is spelled as no IANA name is: the zone it names.
    expect(spelledZone('us/pacific')).toBe('America/Los_Angeles');
    expect(spelledZone('US/PACIFIC')).toBe('America/Los_Angeles');
    expect(spelledZone('Mars/Olympus')).toBe('Mars/Olympus');
  });

  it("keeps a renamed zone by the name it was typed with, in IANA's case, not the old one ICU gives", () => {
    expect(spelledZone('asia/kolkata')).toBe('Asia/Kolkata');
    expect(spelledZone('ASIA/KOLKATA')).toBe('Asia/Kolkata');
    expect(spelledZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(spelledZone('europe/kyiv')).toBe('Europe/Kyiv');
    expect(spelledZone('america/argentina/buenos_aires')).toBe('America/Argentina/Buenos_Aires');
    // The old name typed as spelled is an alias kept as given; in another case it is IANA's spelling of it.
    expect(spelledZone('Asia/Calcutta')).toBe('Asia/Calcutta');
    expect(spelledZone('asia/calcutta')).toBe('Asia/Calcutta');
    expect(spelledZone('europe/uzhgorod')).toBe('Europe/Kyiv');
  });
});

describe('days on, up to the last day a row can hold', () => {
  it('counts on as addDays does, and stops at 9999-12-31', () => {
    expect(addDaysUpToLast('2026-11-28', 14)).toBe(addDays('2026-11-28', 14));
    expect(addDaysUpToLast('9999-12-25', 6)).toBe('9999-12-31');
    expect(addDaysUpToLast('9999-12-25', 14)).toBe('9999-12-31');
  });
});
