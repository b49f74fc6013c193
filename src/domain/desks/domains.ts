import { sameAnswer } from '../same-answer.ts';
import type { DeskContext } from '../context.ts';
import type { DomainRow } from '../../store/schema.ts';
import { domainsOf } from '../../store/repositories/domains.ts';

// GET /domains (D22): every domain held, and a summary. `owing` counts domains unpaid or in
// collections; `owing_amount` sums those priced in the desk's own currency (P-domains-1);
// `next` is the earliest recorded renewal date.

export const OWING_STATUSES = ['unpaid', 'collections'] as const;

export type Domain = Omit<DomainRow, 'desk_id'>;

export interface DomainSummary {
  total: number;
  live: number;
  owing: number;
  owing_amount: number;
  currency: string;
  broker: string;
  broker_configured: boolean;
  next: { id: number; name: string; renewal_on: string } | null;
}

export function isOwing(status: string): boolean {
  return (OWING_STATUSES as readonly string[]).includes(status);
}

export function summariseDomains(
  items: readonly Domain[],
  desk: { currency: string; broker: string | null },
): DomainSummary {
  const owing = items.filter((d) => isOwing(d.status));
  let next: DomainSummary['next'] = null;
  for (const d of items) {
    if (
      d.renewal_on !== null &&
      (next === null || d.renewal_on < next.renewal_on || (d.renewal_on === next.renewal_on && d.id < next.id))
    ) {
      next = { id: d.id, name: d.name, renewal_on: d.renewal_on };
    }
  }
  const broker = desk.broker?.trim() ?? '';
  return {
    total: items.length,
    live: items.filter((d) => d.status === 'live').length,
    owing: owing.length,
    owing_amount: owing.filter((d) => d.currency === desk.currency).reduce((s, d) => s + Number(d.amount_cents), 0),
    currency: desk.currency,
    broker,
    broker_configured: broker !== '',
    next,
  };
}

export async function listDomains(ctx: DeskContext): Promise<{ items: Domain[]; summary: DomainSummary }> {
  return sameAnswer(ctx, 'domains', null, async () => {
    const rows = await domainsOf(ctx.db, ctx.desk.id);
    const items = rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
    return { items, summary: summariseDomains(items, ctx.desk) };
  });
}
