import { sameAnswer } from '../same-answer.ts';
import { byBytes } from '../text.ts';
import type { DeskContext } from '../context.ts';
import type { ArrangementRow } from '../../store/schema.ts';
import { notesByArrangement } from '../../store/repositories/activity.ts';
import { arrangementsOf } from '../../store/repositories/desk-reads.ts';
import { openByArrangement } from '../../store/repositories/open-counts.ts';

// GET /arrangements (D4): every arrangement with the state of its open work and its notes,
// most in need of attention first: overdue work desc, open work desc, next due asc (none
// last), then name. `next_due` is the earliest due date among its open rows, so an overdue
// one shows as a date already passed (P-arrangements-1).

export type ArrangementStatus = 'active' | 'ending' | 'ended';

export interface Arrangement {
  id: number;
  name: string;
  counterparty: string | null;
  kind: string;
  status: ArrangementStatus;
  starts_on: string | null;
  ends_on: string | null;
  renews_on: string | null;
  amount_cents: number | null;
  currency: string | null;
  contact_name: string | null;
  contact_email: string | null;
  open_work: number;
  overdue_work: number;
  next_due: string | null;
  notes_count: number;
  last_note_at: string | null;
}

export interface WorkTally {
  open_work: number;
  overdue_work: number;
  next_due: string | null;
}

export interface NoteTally {
  notes_count: number;
  last_note_at: string | null;
}

const NO_WORK: WorkTally = { open_work: 0, overdue_work: 0, next_due: null };
const NO_NOTES: NoteTally = { notes_count: 0, last_note_at: null };

/** Most in need of attention first. */
export function byAttention(a: Arrangement, b: Arrangement): number {
  return (
    b.overdue_work - a.overdue_work ||
    b.open_work - a.open_work ||
    // No date last, after the latest one the desk keeps.
    (a.next_due === b.next_due
      ? 0
      : a.next_due === null
        ? 1
        : b.next_due === null
          ? -1
          : byBytes(a.next_due, b.next_due)) ||
    byBytes(a.name, b.name) ||
    a.id - b.id
  );
}

export function toArrangement(
  row: Omit<ArrangementRow, 'desk_id' | 'created_at'>,
  work: WorkTally = NO_WORK,
  notes: NoteTally = NO_NOTES,
): Arrangement {
  // An amount means nothing without its currency, so the two are given or withheld together.
  const priced = row.amount_cents !== null && row.currency !== null;
  return {
    id: row.id,
    name: row.name,
    counterparty: row.counterparty,
    kind: row.kind,
    status: row.status as ArrangementStatus,
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    renews_on: row.renews_on,
    amount_cents: priced ? Number(row.amount_cents) : null,
    currency: priced ? row.currency : null,
    contact_name: row.contact_name,
    contact_email: row.contact_email,
    ...work,
    ...notes,
  };
}

export async function listArrangements(ctx: DeskContext): Promise<{ items: Arrangement[] }> {
  return sameAnswer(ctx, 'arrangements', null, async () => {
    const deskId = ctx.desk.id;
    const today = ctx.today();
    const rows = await arrangementsOf(ctx.db, deskId);
    if (rows.length === 0) return { items: [] };

    const work = await openByArrangement(ctx.db, deskId, today);
    const notes = await notesByArrangement(ctx.db, deskId);

    const workBy = new Map(
      work.map((w) => [
        w.arrangement_id,
        { open_work: w.open_work, overdue_work: w.overdue_work, next_due: w.next_due },
      ]),
    );
    const notesBy = new Map(
      notes.map((n) => [n.arrangement_id!, { notes_count: Number(n.n), last_note_at: n.last ?? null }]),
    );
    return { items: rows.map((r) => toArrangement(r, workBy.get(r.id), notesBy.get(r.id))).sort(byAttention) };
  });
}
