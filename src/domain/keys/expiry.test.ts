import { describe, expect, it } from 'vitest';
import { DeskError } from '../errors.ts';
import { expiryAfter, lastDayOf } from './expiry.ts';

describe("a key's last day", () => {
  it('is stored as the midnight after it in the desk zone, and read back as the same day', () => {
    const at = expiryAfter('Europe/London', '2027-06-30');
    expect(at).toBe('2027-06-30T23:00:00.000Z');
    expect(lastDayOf('Europe/London', at)).toBe('2027-06-30');
  });

  it('can be 9999-12-30 at the latest: the day after 9999-12-31 is no date, so it is refused by field', () => {
    expect(lastDayOf('UTC', expiryAfter('UTC', '9999-12-30'))).toBe('9999-12-30');
    let err: unknown;
    try {
      expiryAfter('UTC', '9999-12-31');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeskError);
    // Said so that it holds at every door: the command line has no empty date to give.
    expect(err).toMatchObject({
      code: 'bad_request',
      message: 'A key can work until 9999-12-30 at the latest; a key given no last day never expires.',
      details: { field: 'expires' },
    });
  });
});
