import type { Domain } from '../../src/domain/desks/domains.ts';

// A domain as GET /domains lists one, for the rules that read domains without a database.

let seq = 0;
export function domainItem(over: Partial<Domain> = {}): Domain {
  seq += 1;
  return {
    id: seq,
    name: `d${seq}.test`,
    registrar: 'Gandi',
    status: 'live',
    renewal_on: null,
    amount_cents: 1500,
    currency: 'GBP',
    broker_name: null,
    notes: null,
    ...over,
  };
}
