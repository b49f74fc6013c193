import { describe, expect, it } from 'vitest';
import { readFormEntry } from '../domain/business/form.ts';
import { ARRANGEMENT_FIELDS, readArrangement } from '../domain/business/read.ts';
import { railErrors } from '../domain/desks/rails.ts';
import type { DeskError } from '../domain/errors.ts';
import { DAYS_MESSAGE } from '../domain/work/snooze.ts';
import { saidToOwner } from './words.ts';

describe('saidToOwner', () => {
  it("says a rail's range as what to type, since the field's hint already says what it means", () => {
    const errors = railErrors({ daily_cap: 5000, act_within_days: 'soon' as unknown as number });
    expect(saidToOwner(errors.daily_cap!, 'daily_cap')).toBe('Type a whole number from 0 to 1000.');
    expect(saidToOwner(errors.act_within_days!, 'act_within_days')).toBe('Type a whole number from 0 to 365.');
  });

  it("says an arrangement's end before its start without the file's field name", () => {
    expect(
      saidToOwner(
        '2027-04-01 is before starts_on 2027-05-01; an arrangement ends on or after the day it starts',
        'ends_on',
      ),
    ).toBe('2027-04-01 is before the start, 2027-05-01; an arrangement ends on or after the day it starts.');
    // As the arrangement form has it: read by the file's reader, the field's label before it.
    const form = { name: 'Lease', starts_on: '2027-05-01', ends_on: '2027-04-01' };
    let refused: unknown;
    try {
      readFormEntry('arrangement', form, ARRANGEMENT_FIELDS, '2026-01-01', (e) => readArrangement(e, null, 'GBP'));
    } catch (err) {
      refused = err;
    }
    const fields = (refused as DeskError).details?.fields as Record<string, string>;
    expect(saidToOwner(fields.ends_on!, 'ends_on')).toBe(
      'Ends on: 2027-04-01 is before the start, 2027-05-01; an arrangement ends on or after the day it starts.',
    );
  });

  it('ends a reason the verbs leave open with a full stop, and leaves an ended one alone', () => {
    const hours = railErrors({ hours: 'nine to five' }).hours!;
    expect(hours.endsWith('.')).toBe(false);
    expect(saidToOwner(hours, 'hours')).toBe(`${hours}.`);
    expect(saidToOwner('Pick a row first.')).toBe('Pick a row first.');
    expect(saidToOwner('Really?')).toBe('Really?');
  });

  it('keeps the words chosen for the verbs it knows, and the screen’s names for things', () => {
    expect(saidToOwner(DAYS_MESSAGE)).toBe('Snooze for a whole number of days from 1 to 365.');
    expect(saidToOwner('"31/12" is not a date; use YYYY-MM-DD.', 'due')).toBe(
      'Pick a day from the calendar; where the field takes text, type it as YYYY-MM-DD.',
    );
    expect(saidToOwner('Work item 12 is closed.')).toBe('This row is closed.');
    expect(saidToOwner('No work item 64 on this desk.')).toBe('No row 64 on this desk.');
    expect(saidToOwner('This desk already holds 63 work items, 1 unit')).toBe(
      'This desk already holds 63 rows, 1 unit.',
    );
  });
});
