import { describe, expect, it } from 'vitest';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { domainItem } from '../../../test/helpers/domain-item.ts';
import type { Arrangement } from '../arrangements/list.ts';
import { addDays } from '../dates.ts';
import type { WatchRow } from '../../store/schema.ts';
import type { WatchedDate } from '../watches/upcoming.ts';
import { COSTS_SHOWN, DATES_SHOWN, datesAhead, moneyOf } from './block-contents.ts';

// P-screen-blocks-2: what the money and dates blocks of the desk page hold.

const today = TEST_NOW.slice(0, 10);
const on = (days: number) => addDays(today, days);

let seq = 0;
function arrangement(over: Partial<Arrangement> = {}): Arrangement {
  seq += 1;
  return {
    id: seq,
    name: `Arrangement ${seq}`,
    counterparty: null,
    kind: 'lease',
    status: 'active',
    starts_on: null,
    ends_on: null,
    renews_on: null,
    amount_cents: null,
    currency: null,
    contact_name: null,
    contact_email: null,
    open_work: 0,
    overdue_work: 0,
    next_due: null,
    notes_count: 0,
    last_note_at: null,
    ...over,
  };
}
const domain = domainItem;
const watch = { id: 1, label: 'Lease ends' } as WatchRow;
const watched = (unit: string, days: number, lead: number): WatchedDate => ({
  watch,
  unit,
  occurrence: on(days),
  starts_on: on(days - lead),
});

describe('datesAhead', () => {
  it('lists renewals, ends and watched dates from today on, soonest first, ties by what they are', () => {
    const r = datesAhead({
      today,
      arrangements: [
        arrangement({ name: 'Lease', renews_on: on(40), ends_on: on(400) }),
        arrangement({ name: 'Old lease', status: 'ended', renews_on: on(5) }),
        arrangement({ name: 'Van hire', renews_on: on(-1) }),
      ],
      domains: [domain({ name: 'bakery.test', renewal_on: on(0) }), domain({ name: 'b.test', renewal_on: null })],
      watched: [watched('12 High Street', 40, 30)],
    });
    expect(r).toEqual({
      ahead: [
        { on: today, what: 'bakery.test renews', work_from: null },
        { on: on(40), what: 'Lease ends: 12 High Street', work_from: on(10) },
        { on: on(40), what: 'Lease renews', work_from: null },
        { on: on(400), what: 'Lease ends', work_from: null },
      ],
      more: 0,
    });
  });

  it('shows the first few and counts the rest', () => {
    const domains = Array.from({ length: DATES_SHOWN + 3 }, (_, n) => domain({ renewal_on: on(n + 1) }));
    const r = datesAhead({ today, arrangements: [], domains: [...domains].reverse(), watched: [] });
    expect(r.ahead.map((d) => d.on)).toEqual(domains.slice(0, DATES_SHOWN).map((d) => d.renewal_on));
    expect(r.more).toBe(3);
  });

  it('is empty with nothing dated ahead', () => {
    expect(datesAhead({ today, arrangements: [arrangement()], domains: [domain()], watched: [] })).toEqual({
      ahead: [],
      more: 0,
    });
  });
});

describe('moneyOf', () => {
  it('holds the domains owed and the running arrangements with an amount', () => {
    const unpaid = domain({ status: 'unpaid' });
    const collections = domain({ status: 'collections' });
    const rent = arrangement({ amount_cents: 125050, currency: 'GBP' });
    const r = moneyOf([domain(), unpaid, collections], 3000, 'GBP', [
      rent,
      arrangement(),
      arrangement({ status: 'ended', amount_cents: 100, currency: 'GBP' }),
    ]);
    expect(r).toEqual({
      kind: 'money',
      owed: [unpaid, collections],
      owed_total: 3000,
      currency: 'GBP',
      costs: [rent],
      costs_more: 0,
    });
  });

  it(`lists the first ${COSTS_SHOWN} arrangements' costs and counts the rest`, () => {
    const many = Array.from({ length: COSTS_SHOWN + 3 }, (_, i) =>
      arrangement({ id: i + 1, amount_cents: 100 + i, currency: 'GBP' }),
    );
    const r = moneyOf([], 0, 'GBP', many);
    expect(r.costs).toEqual(many.slice(0, COSTS_SHOWN));
    expect(r.costs_more).toBe(3);
  });
});
