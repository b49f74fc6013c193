import { describe, expect, it } from 'vitest';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { addDays } from '../dates.ts';
import { dueOccurrence, madeByWatch, madeOccurrences, pendingOccurrence, workStartsOn } from './schedule.ts';

// The watch rules as a table: which occurrence is next, when it becomes work, and that the
// pass (dueOccurrence) and the screen's "next turns into work" (workStartsOn) agree.

const TODAY = '2026-11-22';
const D = addDays(TODAY, 100);

describe('pendingOccurrence', () => {
  it.each([
    ['nothing made yet: the unit date', null, [], D],
    ['made and still open, one-off: none', null, [[D, 'open']], null],
    ['made and done, one-off: none', null, [[D, 'done']], null],
    ['made and open, repeating: waits for it', 365, [[D, 'waiting']], null],
    ['made and closed, repeating: the next one', 365, [[D, 'closed']], addDays(D, 365)],
    [
      'two done, repeating: the third',
      30,
      [
        [D, 'done'],
        [addDays(D, 30), 'done'],
      ],
      addDays(D, 60),
    ],
  ] as const)('%s', (_name, every, made, expected) => {
    expect(pendingOccurrence({ date: D, every, made: new Map(made as ReadonlyArray<[string, string]>) })).toBe(
      expected,
    );
  });

  it('ends the chain at 9999-12-31, the last day a row can hold', () => {
    const done = (date: string) => new Map([[date, 'done']]);
    expect(pendingOccurrence({ date: '9999-06-01', every: 365, made: done('9999-06-01') })).toBeNull();
    expect(pendingOccurrence({ date: '9999-06-01', every: 213, made: done('9999-06-01') })).toBe('9999-12-31');
  });
});

describe('workStartsOn', () => {
  it.each([
    ['lead days before the date', 30, addDays(D, -30)],
    ['today when the lead reaches back past today', 120, TODAY],
    ['the date itself with no lead', 0, D],
  ] as const)('%s', (_name, lead, expected) => {
    expect(workStartsOn(D, lead, TODAY)).toBe(expected);
  });

  it('is the first day dueOccurrence makes the work', () => {
    for (const lead of [0, 1, 30, 99, 100, 150]) {
      const starts = workStartsOn(D, lead, TODAY);
      const made = new Map<string, string>();
      expect(dueOccurrence({ date: D, every: null, leadDays: lead, today: starts, made })).toBe(D);
      if (starts > TODAY)
        expect(dueOccurrence({ date: D, every: null, leadDays: lead, today: addDays(starts, -1), made })).toBeNull();
    }
  });
});

describe('a unit whose date was changed while its row is open', () => {
  // The clock the suite pins, read as a UTC desk's today.
  const today = TEST_NOW.slice(0, 10);
  const old = addDays(today, 10);

  it.each([
    ['moved later: no second row while the first is open', addDays(old, 3), 'open', null],
    ['moved earlier: no second row while the first is waiting', addDays(old, -3), 'waiting', null],
    ['moved later, the first row done: the new date', addDays(old, 3), 'done', addDays(old, 3)],
  ] as const)('%s', (_name, moved, status, expected) => {
    const made = new Map([[old, status]]);
    expect(pendingOccurrence({ date: moved, every: null, made })).toBe(expected);
    expect(pendingOccurrence({ date: moved, every: 30, made })).toBe(expected);
    expect(dueOccurrence({ date: moved, every: 30, leadDays: 30, today, made })).toBe(expected);
  });
});

describe('madeOccurrences', () => {
  const row = (watch_id: number | null, unit_id: number, watch_date: string, kind: string, status: string) => ({
    watch_id,
    unit_id,
    watch_date,
    kind,
    status,
  });
  const madeFor = madeOccurrences([
    row(1, 10, D, 'lease_renewal', 'done'),
    row(1, 11, D, 'lease_renewal', 'open'),
    // Made by a watch since removed.
    row(null, 10, addDays(D, 365), 'lease_renewal', 'open'),
    row(null, 10, addDays(D, 30), 'insurance', 'open'),
  ]);

  it("gives each watch its own rows, unit by unit, and a removed watch's rows to a watch of their kind", () => {
    expect([...madeFor({ id: 1, kind: 'lease_renewal' }, 10)]).toEqual([
      [addDays(D, 365), 'open'],
      [D, 'done'],
    ]);
    expect([...madeFor({ id: 1, kind: 'lease_renewal' }, 11)]).toEqual([[D, 'open']]);
    expect([...madeFor({ id: 2, kind: 'lease_renewal' }, 10)]).toEqual([[addDays(D, 365), 'open']]);
    expect([...madeFor({ id: 3, kind: 'insurance' }, 10)]).toEqual([[addDays(D, 30), 'open']]);
    expect([...madeFor({ id: 3, kind: 'insurance' }, 11)]).toEqual([]);
  });
});

describe('madeByWatch', () => {
  const lease = { id: 1, subject_type: 'site', field: 'lease_end', label: 'Lease', kind: 'renewal' };
  const insurance = { id: 2, subject_type: 'site', field: 'insured_to', label: 'Lease', kind: 'renewal' };
  const shop = { type: 'site', name: 'Shop', fields: JSON.stringify({ lease_end: D, insured_to: addDays(D, 30) }) };
  const row = { title: 'Lease: Shop', kind: 'renewal', due_date: D };

  it.each([
    ['its unit, kind and title', row, shop, 1],
    ['the one of two alike whose date on the unit is the row', { ...row, due_date: addDays(D, 30) }, shop, 2],
    ['the first of two alike when neither date is the row', { ...row, due_date: addDays(D, 1) }, shop, 1],
    ['another kind', { ...row, kind: 'general' }, shop, null],
    ['a title of its own, on the date the unit holds', { ...row, title: 'Renew the Shop lease' }, shop, 1],
    ['a title of its own, on another date', { ...row, title: 'Renew', due_date: addDays(D, 1) }, shop, null],
    ['the unit renamed since', row, { ...shop, name: 'Shop Two' }, 1],
    ['no date', { ...row, due_date: null }, shop, null],
    ['no unit', row, null, null],
    ['a unit of a type no watch looks at', row, { ...shop, type: 'van' }, null],
  ])('%s', (_name, r, unit, expected) => {
    expect(madeByWatch(r, unit, [lease, insurance])?.id ?? null).toBe(expected);
  });
});
