import type { DeskContext } from '../../domain/context.ts';
import { listSections } from '../../domain/desks/sections.ts';
import { listConnections, type Connection } from '../../domain/desks/connections.ts';
import type { WorkItem } from '../../domain/work/derive.ts';
import { toItem, toItems } from '../../domain/work/items.ts';
import { addDaysUpToLast } from '../../domain/dates.ts';
import { MAX_ID } from '../../domain/input.ts';
import { OPEN_STATUSES } from '../../domain/vocab.ts';
import { lastSentMessage, lastUnsentMessage } from '../../store/repositories/activity.ts';
import {
  arrangementsOf,
  openRowsAfter,
  type OpenRowsQuery,
  unitsOf,
  usedKinds,
} from '../../store/repositories/desk-reads.ts';
import { arrangementName, unitName } from '../../store/repositories/names.ts';
import { findWork } from '../../store/repositories/work.ts';
import type { ArrangementRow } from '../../store/schema.ts';
import { storedObject } from '../../domain/text.ts';
import { letOthersIn } from '../../domain/turn.ts';

// The narrow reads chat answers from. Rows always become work items through toItems, so
// overdue, days, allowed and the action are the ones every other door shows.

/** How many rows one read takes; every open row is read, a batch at a time. */
const DEPTH = 1000;
/** How many of the rows that match an answer names or a tool lists; the others are counted. */
export const NAMED = 50;

type Order = (a: WorkItem, b: WorkItem) => number;

/** The rows that match a question: how many there are, and the first `NAMED` of them in order. */
export class Tally {
  total = 0;
  readonly items: WorkItem[] = [];
  constructor(
    private readonly order: Order,
    readonly keep: (i: WorkItem) => boolean = () => true,
  ) {}

  add(item: WorkItem): void {
    if (!this.keep(item)) return;
    this.total++;
    const last = this.items.at(-1);
    if (this.items.length >= NAMED && last && this.order(item, last) >= 0) return;
    let at = this.items.length;
    while (at > 0 && this.order(item, this.items[at - 1]!) < 0) at--;
    this.items.splice(at, 0, item);
    if (this.items.length > NAMED) this.items.pop();
  }
}

const dueKey = (i: WorkItem) => i.due_date ?? '9999-12-32';
/** The order dates are answered in: soonest due first (no date last), then priority, then id. */
export const byDue: Order = (a, b) =>
  dueKey(a) < dueKey(b) ? -1 : dueKey(a) > dueKey(b) ? 1 : b.priority - a.priority || a.id - b.id;
/** Longest waiting first. */
export const byWaiting: Order = (a, b) => (b.days_waiting ?? 0) - (a.days_waiting ?? 0) || a.id - b.id;

export type OpenQuery = Omit<OpenRowsQuery, 'openStatuses'>;

/**
 * Every open row the query picks, as work items, into each tally: a desk of any size is counted
 * whole, and only the first rows of each are kept.
 */
export async function tallyOpen(ctx: DeskContext, q: OpenQuery, ...tallies: Array<Pick<Tally, 'add'>>): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await openRowsAfter(ctx.db, ctx.desk.id, { ...q, openStatuses: OPEN_STATUSES }, after, DEPTH);
    for (const item of await toItems(ctx, rows)) for (const t of tallies) t.add(item);
    if (rows.length < DEPTH) return;
    after = rows.at(-1)!.id;
    // A desk of 100,000 rows takes seconds to count: other desks' requests go between batches.
    await letOthersIn();
  }
}

/** Open rows whose due date has passed, oldest date first. */
export async function overdueWork(ctx: DeskContext): Promise<Tally> {
  const t = new Tally(byDue, (i) => i.overdue);
  await tallyOpen(ctx, { dueBefore: ctx.today() }, t);
  return t;
}

/** Open rows due on or before `until` (overdue ones included), or every open row when `until` is null, that `keep` keeps. */
export async function openWork(
  ctx: DeskContext,
  until: string | null = null,
  keep?: (i: WorkItem) => boolean,
): Promise<Tally> {
  const t = new Tally(byDue, keep);
  await tallyOpen(ctx, until === null ? {} : { dueBy: until }, t);
  return t;
}

/** Open rows out with somebody (waiting_on set, D21), longest-waiting first. */
export async function waitingWork(ctx: DeskContext): Promise<Tally> {
  const t = new Tally(byWaiting);
  await tallyOpen(ctx, { waiting: true }, t);
  return t;
}

export interface WorkDetail {
  item: WorkItem;
  arrangement: string | null;
  unit: string | null;
}

/** One row on this desk, whatever its status, with the names of what it hangs off. */
export async function workDetail(ctx: DeskContext, id: number): Promise<WorkDetail | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) return null;
  const row = await findWork(ctx.db, ctx.desk.id, id);
  if (!row) return null;
  const arrangement = await arrangementName(ctx.db, ctx.desk.id, row.arrangement_id);
  const unit = await unitName(ctx.db, ctx.desk.id, row.unit_id);
  return { item: await toItem(ctx, row), arrangement, unit };
}

export type Arrangement = Omit<ArrangementRow, 'desk_id' | 'created_at'>;

export async function arrangements(ctx: DeskContext): Promise<Arrangement[]> {
  return arrangementsOf(ctx.db, ctx.desk.id);
}

/** The desk's mail connections, in the order GET /connections gives them (problems first). */
export async function mailConnections(ctx: DeskContext): Promise<Connection[]> {
  return (await listConnections(ctx)).items.filter((c) => c.category === 'mail');
}

export interface MailRecord {
  /** The newest message a provider accepted. */
  lastSent: { subject: string | null; to: string | null; sent_at: string } | null;
  /** The newest message that was approved but could not be sent, with why. */
  lastFailure: { subject: string | null; to: string | null; at: string; reason: string } | null;
}

export async function mailRecord(ctx: DeskContext): Promise<MailRecord> {
  const sent = await lastSentMessage(ctx.db, ctx.desk.id);
  const failed = await lastUnsentMessage(ctx.db, ctx.desk.id);
  return {
    lastSent: sent?.sent_at ? { subject: sent.subject, to: sent.to_address, sent_at: sent.sent_at } : null,
    lastFailure: failed
      ? {
          subject: failed.subject,
          to: failed.to_address,
          at: failed.approved_at ?? failed.created_at,
          reason: failed.failure_reason ?? '',
        }
      : null,
  };
}

/** Every work kind the desk knows: on its rows, its watches and its work blocks. */
export async function workKinds(ctx: DeskContext): Promise<string[]> {
  const fromSections = (await listSections(ctx)).flatMap((s) => s.kinds);
  return [...new Set([...(await usedKinds(ctx.db, ctx.desk.id)), ...fromSections])].filter((k) => k !== '').sort();
}

/** Each unit type on the desk with the field names its units record. */
export async function unitTypes(ctx: DeskContext): Promise<Map<string, string[]>> {
  const rows = await unitsOf(ctx.db, ctx.desk.id, { limit: DEPTH });
  const types = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!types.has(r.type)) types.set(r.type, new Set());
    // A unit with unreadable fields still has a type.
    for (const k of Object.keys(storedObject(r.fields))) types.get(r.type)!.add(k);
  }
  return new Map([...types].map(([t, f]) => [t, [...f]]));
}

/** The last day of "the next `days` days", counting today as day 0, or the last day the desk keeps. */
export function horizon(ctx: DeskContext, days: number): string {
  return addDaysUpToLast(ctx.today(), days);
}
