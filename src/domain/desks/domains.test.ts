import { describe, expect, it } from 'vitest';
import { domainItem } from '../../../test/helpers/domain-item.ts';
import { summariseDomains } from './domains.ts';

// D22 and P-domains-1/2: counts by status, what is owed in the desk's currency, the broker,
// and the soonest renewal.

const domain = domainItem;
const desk = { currency: 'GBP', broker: 'Sedo' };

describe('summariseDomains', () => {
  it('is all zeros and no next with no domains', () => {
    expect(summariseDomains([], desk)).toEqual({
      total: 0,
      live: 0,
      owing: 0,
      owing_amount: 0,
      currency: 'GBP',
      broker: 'Sedo',
      broker_configured: true,
      next: null,
    });
  });

  it.each([
    ['live', { live: 1, owing: 0, owing_amount: 0 }],
    ['unpaid', { live: 0, owing: 1, owing_amount: 1500 }],
    ['collections', { live: 0, owing: 1, owing_amount: 1500 }],
    ['expiring', { live: 0, owing: 0, owing_amount: 0 }],
    ['expired', { live: 0, owing: 0, owing_amount: 0 }],
    ['transferring', { live: 0, owing: 0, owing_amount: 0 }],
  ])('a %s domain counts as %j', (status, expected) => {
    expect(summariseDomains([domain({ status })], desk)).toMatchObject({ total: 1, ...expected });
  });

  it('sums what unpaid and collections domains owe in the desk currency only', () => {
    const s = summariseDomains(
      [
        domain({ status: 'unpaid', amount_cents: 1000 }),
        domain({ status: 'collections', amount_cents: 2500 }),
        domain({ status: 'unpaid', amount_cents: 9999, currency: 'USD' }),
        domain({ status: 'live', amount_cents: 700 }),
      ],
      desk,
    );
    expect(s).toMatchObject({ total: 4, live: 1, owing: 3, owing_amount: 3500, currency: 'GBP' });
  });

  it('next is the earliest recorded renewal; the lower id on a tie; dates missing are skipped', () => {
    const a = domain({ renewal_on: '2027-03-01' });
    const b = domain({ renewal_on: '2026-12-24' });
    const c = domain({ renewal_on: '2026-12-24' });
    const d = domain({ renewal_on: null });
    expect(summariseDomains([a, c, b, d], desk).next).toEqual({ id: b.id, name: b.name, renewal_on: '2026-12-24' });
    expect(summariseDomains([d], desk).next).toBeNull();
  });

  it('broker is the desk broker, or empty and not configured', () => {
    expect(summariseDomains([], { currency: 'EUR', broker: '  ' })).toMatchObject({
      broker: '',
      broker_configured: false,
      currency: 'EUR',
    });
    expect(summariseDomains([], { currency: 'EUR', broker: null })).toMatchObject({
      broker: '',
      broker_configured: false,
    });
    expect(summariseDomains([], { currency: 'EUR', broker: ' Sedo ' })).toMatchObject({
      broker: 'Sedo',
      broker_configured: true,
    });
  });
});
