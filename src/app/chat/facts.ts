import type { DeskContext } from '../../domain/context.ts';
import { listSections } from '../../domain/desks/sections.ts';
import { listConnections, type Connection } from '../../domain/desks/connections.ts';
import type { WorkItem } from '../../domain/work/derive.ts';
import { toItem, toItems } from '../../domain/work/items.ts';
import { addDays } from '../../domain/dates.ts';
import { MAX_ID } from '../../domain/input.ts';
import { OPEN_STATUSES } from '../../domain/vocab.ts';
import { lastSentMessage, lastUnsentMessage } from '../../store/repositories/activity.ts';
import { arrangementsOf, openRows, unitsOf, usedKinds } from '../../store/repositories/desk-reads.ts';
import { arrangementName, unitName } from '../../store/repositories/names.ts';
import { findWork } from '../../store/repositories/work.ts';
import type { ArrangementRow } from '../../store/schema.ts';
import { storedObject } from '../../domain/text.ts';

// The narrow reads chat answers from. Rows always become work items through toItems, so
// overdue, days, allowed and the action are the ones every other door shows.

/** Enough for any one answer; a desk with more open rows than this is summarised by counts. */
const DEPTH = 1000;

const open = { openStatuses: OPEN_STATUSES, limit: DEPTH };

/** Open rows whose due date has passed, oldest date first. */
export async function overdueWork(ctx: DeskContext): Promise<WorkItem[]> {
  const rows = await openRows(ctx.db, ctx.desk.id, { ...open, dueBefore: ctx.today() });
  return (await toItems(ctx, rows)).filter((i) => i.overdue);
}

/** Open rows due on or before `until` (overdue ones included), or every open row when `until` is null. */
export async function openWork(ctx: DeskContext, until: string | null = null): Promise<WorkItem[]> {
  const rows = await openRows(ctx.db, ctx.desk.id, until === null ? open : { ...open, dueBy: until });
  return toItems(ctx, rows);
}

/** Open rows out with somebody (waiting_on set, D21), longest-waiting first. */
export async function waitingWork(ctx: DeskContext): Promise<WorkItem[]> {
  const rows = await openRows(ctx.db, ctx.desk.id, { ...open, waiting: true });
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

/** The last day of "the next `days` days", counting today as day 0. */
export function horizon(ctx: DeskContext, days: number): string {
  return addDays(ctx.today(), days);
}
