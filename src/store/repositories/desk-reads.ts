import type { Kysely } from 'kysely';
import type { Database, WorkRow } from '../schema.ts';

// Narrow reads over one desk for the chat answerers (app/chat): open rows in a few orders,
// its arrangements, units, watches and the kinds it uses.

export interface OpenRowsQuery {
  openStatuses: readonly string[];
  /** Only rows due before this date (overdue). */
  dueBefore?: string;
  /** Only rows due on or before this date. */
  dueBy?: string;
  /** Only rows out with somebody. */
  waiting?: boolean;
}

/**
 * The open rows the query picks, a batch at a time in the order of their ids: the rows after
 * `afterId`, at most `limit`. A reader that must see every one (a count) goes on from the last
 * id it was given.
 */
export async function openRowsAfter(
  db: Kysely<Database>,
  deskId: string,
  q: OpenRowsQuery,
  afterId: number,
  limit: number,
): Promise<WorkRow[]> {
  let s = db
    .selectFrom('work')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('status', 'in', [...q.openStatuses])
    .where('id', '>', afterId);
  if (q.dueBefore !== undefined) s = s.where('due_date', '<', q.dueBefore);
  if (q.dueBy !== undefined) s = s.where('due_date', '<=', q.dueBy);
  if (q.waiting) s = s.where('waiting_on', 'is not', null);
  return s.orderBy('id').limit(limit).execute();
}

export async function arrangementsOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('arrangements')
    .select([
      'id',
      'name',
      'counterparty',
      'kind',
      'status',
      'starts_on',
      'ends_on',
      'renews_on',
      'amount_cents',
      'currency',
      'contact_name',
      'contact_email',
    ])
    .where('desk_id', '=', deskId)
    .orderBy('id')
    .execute();
}

/** The kinds on the desk's rows and on its watches. */
export async function usedKinds(db: Kysely<Database>, deskId: string): Promise<string[]> {
  const fromWork = await db.selectFrom('work').select('kind').distinct().where('desk_id', '=', deskId).execute();
  const fromWatches = await db.selectFrom('watches').select('kind').distinct().where('desk_id', '=', deskId).execute();
  return [...fromWork.map((r) => r.kind), ...fromWatches.map((r) => r.kind)];
}

/** Units in screen order, optionally of one type. */
export async function unitsOf(db: Kysely<Database>, deskId: string, opts: { type?: string; limit?: number } = {}) {
  let q = db
    .selectFrom('units')
    .select(['id', 'type', 'name', 'fields', 'arrangement_id'])
    .where('desk_id', '=', deskId);
  if (opts.type !== undefined) q = q.where('type', '=', opts.type);
  q = q.orderBy('position').orderBy('id');
  return opts.limit === undefined ? q.execute() : q.limit(opts.limit).execute();
}

export async function watchesOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('watches')
    .select(['id', 'subject_type', 'field', 'label', 'lead_days', 'kind', 'action', 'every', 'priority'])
    .where('desk_id', '=', deskId)
    .orderBy('id')
    .execute();
}

/** Every watch on the desk, whole rows, by id. */
export async function watchRowsOf(db: Kysely<Database>, deskId: string) {
  return db.selectFrom('watches').selectAll().where('desk_id', '=', deskId).orderBy('id').execute();
}

/** Every unit of these types, whole rows, in screen order. */
export async function unitRowsOfTypes(db: Kysely<Database>, deskId: string, types: string[]) {
  return db
    .selectFrom('units')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('type', 'in', types)
    .orderBy('position')
    .orderBy('id')
    .execute();
}
