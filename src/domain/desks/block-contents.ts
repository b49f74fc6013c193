import type { DeskContext } from '../context.ts';
import { listArrangements, type Arrangement } from '../arrangements/list.ts';
import { watchTitle } from '../watches/schedule.ts';
import { watchedDates, type WatchedDate } from '../watches/upcoming.ts';
import { isOwing, listDomains, type Domain } from './domains.ts';
import type { DeskSection } from './sections.ts';
import { listUnits, type Unit } from './units.ts';

// What a block of the desk page holds beyond its title (P-screen-blocks-2): a `units` block
// its units, a `money` block what is owed and what the arrangements cost, a `dates` block the
// next dates the desk keeps. A `work` block links to its kinds in the queue and holds nothing.

/** How many dates a `dates` block lists; the rest are counted. */
export const DATES_SHOWN = 8;
/** How many units a `units` block lists; the rest are counted, and all are under Units. */
export const UNITS_SHOWN = 20;
/** How many arrangements' costs a `money` block lists; the rest are counted, and all are under Arrangements. */
export const COSTS_SHOWN = 20;

export interface DateAhead {
  on: string;
  what: string;
  /** For a watched date, the day the desk puts it in the queue. */
  work_from: string | null;
}

export type BlockContents =
  | { kind: 'units'; items: Unit[]; more: number }
  | { kind: 'money'; owed: Domain[]; owed_total: number; currency: string; costs: Arrangement[]; costs_more: number }
  | { kind: 'dates'; ahead: DateAhead[]; more: number };

/** The dates from today on, soonest first (then by what they are), the first `shown` of them and how many more. */
export function datesAhead(
  input: {
    today: string;
    arrangements: readonly Arrangement[];
    domains: readonly Domain[];
    watched: readonly WatchedDate[];
  },
  shown = DATES_SHOWN,
): { ahead: DateAhead[]; more: number } {
  const all: DateAhead[] = [];
  for (const a of input.arrangements) {
    if (a.status === 'ended') continue;
    if (a.renews_on) all.push({ on: a.renews_on, what: `${a.name} renews`, work_from: null });
    if (a.ends_on) all.push({ on: a.ends_on, what: `${a.name} ends`, work_from: null });
  }
  for (const d of input.domains) {
    if (d.renewal_on) all.push({ on: d.renewal_on, what: `${d.name} renews`, work_from: null });
  }
  for (const w of input.watched) {
    all.push({ on: w.occurrence, what: watchTitle(w.watch, { name: w.unit }), work_from: w.starts_on });
  }
  const coming = all
    .filter((d) => d.on >= input.today)
    .sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : a.what < b.what ? -1 : a.what > b.what ? 1 : 0));
  return { ahead: coming.slice(0, shown), more: Math.max(0, coming.length - shown) };
}

/** Domains unpaid or in collections, and the total of those in the desk's currency; the first of the arrangements still running that carry an amount, and how many more. */
export function moneyOf(
  domains: readonly Domain[],
  owedTotal: number,
  currency: string,
  arrangements: readonly Arrangement[],
): Extract<BlockContents, { kind: 'money' }> {
  const costs = arrangements.filter((a) => a.status !== 'ended' && a.amount_cents !== null);
  return {
    kind: 'money',
    owed: domains.filter((d) => isOwing(d.status)),
    owed_total: owedTotal,
    currency,
    costs: costs.slice(0, COSTS_SHOWN),
    costs_more: Math.max(0, costs.length - COSTS_SHOWN),
  };
}

/** The contents of each block that has any, by block id; each source is read once, and only when a block needs it. */
export async function blockContents(
  ctx: DeskContext,
  sections: readonly DeskSection[],
): Promise<Map<string, BlockContents>> {
  const kinds = new Set(sections.map((s) => s.kind));
  // The money and dates blocks both read the arrangements and the domains.
  const dealings = kinds.has('money') || kinds.has('dates');
  const [arrangements, domains, watched] = await Promise.all([
    dealings ? listArrangements(ctx).then((r) => r.items) : [],
    dealings ? listDomains(ctx) : null,
    kinds.has('dates') ? watchedDates(ctx) : [],
  ]);
  const out = new Map<string, BlockContents>();
  for (const s of sections) {
    if (s.kind === 'units' && s.unit) {
      const { items } = await listUnits(ctx, { type: s.unit });
      out.set(s.id, {
        kind: 'units',
        items: items.slice(0, UNITS_SHOWN),
        more: Math.max(0, items.length - UNITS_SHOWN),
      });
    } else if (s.kind === 'money' && domains)
      out.set(s.id, moneyOf(domains.items, domains.summary.owing_amount, ctx.desk.currency, arrangements));
    else if (s.kind === 'dates' && domains)
      out.set(s.id, {
        kind: 'dates',
        ...datesAhead({ today: ctx.today(), arrangements, domains: domains.items, watched }),
      });
  }
  return out;
}
