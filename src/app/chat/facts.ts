import type { DeskContext } from '../../domain/context.ts';
import { listSections } from '../../domain/desks/sections.ts';
import { listConnections, type Connection } from '../../domain/desks/connections.ts';
import type { WorkItem } from '../../domain/work/derive.ts';
import { toItem, toItems } from '../../domain/work/items.ts';
import { addDays } from '../../domain/dates.ts';
import { OPEN_STATUSES } from '../../domain/vocab.ts';
import { findWork } from '../../store/repositories/work.ts';
import type { ArrangementRow } from '../../store/schema.ts';
import { storedObject } from '../../domain/text.ts';

// The narrow reads chat answers from. Rows always become work items through toItems, so
// overdue, days, allowed and the action are the ones every other door shows.

/** Enough for any one answer; a desk with more open rows than this is summarised by counts. */
const DEPTH = 1000;

function openRows(ctx: DeskContext) {
  return ctx.db.selectFrom('work').selectAll().where('desk_id', '=', ctx.desk.id).where('status', 'in', [...OPEN_STATUSES]);
}

/** Open rows whose due date has passed, oldest date first. */
export async function overdueWork(ctx: DeskContext): Promise<WorkItem[]> {
  const rows = await openRows(ctx).where('due_date', '<', ctx.today()).orderBy('due_key').orderBy('priority', 'desc').orderBy('id').limit(DEPTH).execute();
  return (await toItems(ctx, rows)).filter((i) => i.overdue);
}

/** Open rows due on or before `until` (overdue ones included), or every open row when `until` is null. */
export async function openWork(ctx: DeskContext, until: string | null = null): Promise<WorkItem[]> {
  let q = openRows(ctx);
  if (until !== null) q = q.where('due_date', '<=', until);
  const rows = await q.orderBy('due_key').orderBy('priority', 'desc').orderBy('id').limit(DEPTH).execute();
  return toItems(ctx, rows);
}

/** Open rows out with somebody (waiting_on set, D21), longest-waiting first. */
export async function waitingWork(ctx: DeskContext): Promise<WorkItem[]> {
  const rows = await openRows(ctx).where('waiting_on', 'is not', null).orderBy('waiting_since').orderBy('id').limit(DEPTH).execute();
  const items = await toItems(ctx, rows);
  return items.sort((a, b) => (b.days_waiting ?? 0) - (a.days_waiting ?? 0) || a.id - b.id);
}

export interface WorkDetail {
  item: WorkItem;
  arrangement: string | null;
  unit: string | null;
}

/** One row on this desk, whatever its status, with the names of what it hangs off. */
export async function workDetail(ctx: DeskContext, id: number): Promise<WorkDetail | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const row = await findWork(ctx.db, ctx.desk.id, id);
  if (!row) return null;
  const arrangement =
    row.arrangement_id === null ? undefined : await ctx.db.selectFrom('arrangements').select('name').where('desk_id', '=', ctx.desk.id).where('id', '=', row.arrangement_id).executeTakeFirst();
  const unit = row.unit_id === null ? undefined : await ctx.db.selectFrom('units').select('name').where('desk_id', '=', ctx.desk.id).where('id', '=', row.unit_id).executeTakeFirst();
  return { item: await toItem(ctx, row), arrangement: arrangement?.name ?? null, unit: unit?.name ?? null };
}

export type Arrangement = Omit<ArrangementRow, 'desk_id' | 'created_at'>;

export async function arrangements(ctx: DeskContext): Promise<Arrangement[]> {
  return ctx.db
    .selectFrom('arrangements')
    .select(['id', 'name', 'counterparty', 'kind', 'status', 'starts_on', 'ends_on', 'renews_on', 'amount_cents', 'currency', 'contact_name', 'contact_email'])
    .where('desk_id', '=', ctx.desk.id)
    .orderBy('id')
    .execute();
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
  const sent = await ctx.db
    .selectFrom('activity')
    .select(['subject', 'to_address', 'sent_at'])
    .where('desk_id', '=', ctx.desk.id)
    .where('kind', '=', 'message')
    .where('status', '=', 'sent')
    .where('sent_at', 'is not', null)
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const failed = await ctx.db
    .selectFrom('activity')
    .select(['subject', 'to_address', 'approved_at', 'created_at', 'failure_reason'])
    .where('desk_id', '=', ctx.desk.id)
    .where('kind', '=', 'message')
    .where('status', '=', 'approved')
    .where('failure_reason', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    lastSent: sent?.sent_at ? { subject: sent.subject, to: sent.to_address, sent_at: sent.sent_at } : null,
    lastFailure: failed ? { subject: failed.subject, to: failed.to_address, at: failed.approved_at ?? failed.created_at, reason: failed.failure_reason ?? '' } : null,
  };
}

/** Every work kind the desk knows: on its rows, its watches and its work blocks. */
export async function workKinds(ctx: DeskContext): Promise<string[]> {
  const fromWork = await ctx.db.selectFrom('work').select('kind').distinct().where('desk_id', '=', ctx.desk.id).execute();
  const fromWatches = await ctx.db.selectFrom('watches').select('kind').distinct().where('desk_id', '=', ctx.desk.id).execute();
  const fromSections = (await listSections(ctx)).flatMap((s) => s.kinds);
  return [...new Set([...fromWork.map((r) => r.kind), ...fromWatches.map((r) => r.kind), ...fromSections])].filter((k) => k !== '').sort();
}

/** Each unit type on the desk with the field names its units record. */
export async function unitTypes(ctx: DeskContext): Promise<Map<string, string[]>> {
  const rows = await ctx.db.selectFrom('units').select(['type', 'fields']).where('desk_id', '=', ctx.desk.id).orderBy('position').limit(DEPTH).execute();
  const types = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!types.has(r.type)) types.set(r.type, new Set());
    // A unit with unreadable fields still has a type.
    for (const k of Object.keys(storedObject(r.fields))) types.get(r.type)!.add(k);
  }
  return new Map([...types].map(([t, f]) => [t, [...f]]));
}

/** The last day of "the next `days` days", counting today as day 0. */
export function horizon(ctx: DeskContext, days: number): string {
  return addDays(ctx.today(), days);
}
