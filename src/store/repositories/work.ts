import { sql, type Kysely } from 'kysely';
import type { Database, NewWork, WorkRow, WorkUpdate } from '../schema.ts';
import { FINISHED_STATUSES, OPEN_STATUSES, isOpenStatus } from '../../domain/vocab.ts';

// The only code that writes work rows. It keeps `desks.open_count` right in the same
// statement sequence as every insert and status change, which is why status never changes
// through `update` below.

export const NO_DATE_KEY = '9999-12-31';

export function dueKey(due: string | null): string {
  return due ?? NO_DATE_KEY;
}

type WorkInsert = Omit<NewWork, 'due_key'>;

export async function insertWork(db: Kysely<Database>, row: WorkInsert): Promise<WorkRow> {
  const inserted = await db
    .insertInto('work')
    .values({ ...row, due_key: dueKey(row.due_date ?? null) })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (isOpenStatus(inserted.status)) await bumpOpenCount(db, inserted.desk_id, 1);
  return inserted;
}

/**
 * Many rows at once, in statements of a few hundred (an import, a test's large desk), with
 * each desk's open count raised by the open rows it gained. Run it in a transaction when the
 * rows and the count must land together.
 */
export async function insertWorkMany(db: Kysely<Database>, rows: readonly WorkInsert[], chunk = 400): Promise<number> {
  const opened = new Map<string, number>();
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk);
    await db
      .insertInto('work')
      .values(part.map((r) => ({ ...r, due_key: dueKey(r.due_date ?? null) })))
      .execute();
    for (const r of part) if (isOpenStatus(r.status)) opened.set(r.desk_id, (opened.get(r.desk_id) ?? 0) + 1);
  }
  for (const [deskId, n] of opened) await bumpOpenCount(db, deskId, n);
  return rows.length;
}

export async function findWork(db: Kysely<Database>, deskId: string, id: number): Promise<WorkRow | undefined> {
  return db.selectFrom('work').selectAll().where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst();
}

/** Rows of the desk by id, in the order the ids are given; ids not on the desk are left out. */
export async function findWorkMany(db: Kysely<Database>, deskId: string, ids: readonly number[]): Promise<WorkRow[]> {
  if (ids.length === 0) return [];
  // By id alone, so that both planners read the primary key rather than every row of the
  // desk; the desk is checked on what comes back.
  const rows = await db
    .selectFrom('work')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.filter((r) => r.desk_id === deskId).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Changes fields other than status. */
export async function updateWork(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  patch: Omit<WorkUpdate, 'status' | 'due_key' | 'id' | 'desk_id'>,
): Promise<void> {
  const values: WorkUpdate = { ...patch };
  if ('due_date' in patch) values.due_key = dueKey(patch.due_date ?? null);
  await db.updateTable('work').set(values).where('desk_id', '=', deskId).where('id', '=', id).execute();
}

/**
 * Moves a row from one status to another, only if it is still in `from` (compare-and-set), so
 * two racing writers cannot both move it. Returns whether this call made the change.
 */
export async function moveWork(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  from: string,
  to: string,
  patch: Omit<WorkUpdate, 'status' | 'due_key' | 'id' | 'desk_id'> = {},
): Promise<boolean> {
  const values: WorkUpdate = { ...patch, status: to };
  if ('due_date' in patch) values.due_key = dueKey(patch.due_date ?? null);
  const res = await db
    .updateTable('work')
    .set(values)
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  const moved = Number(res.numUpdatedRows) === 1;
  if (moved) {
    const delta = (isOpenStatus(to) ? 1 : 0) - (isOpenStatus(from) ? 1 : 0);
    if (delta !== 0) await bumpOpenCount(db, deskId, delta);
  }
  return moved;
}

async function bumpOpenCount(db: Kysely<Database>, deskId: string, delta: number): Promise<void> {
  await db
    .updateTable('desks')
    .set({ open_count: sql<number>`open_count + ${delta}` })
    .where('id', '=', deskId)
    .execute();
}

/** Recounts open rows from the table itself; the owner's repair tool and the tests' cross-check. */
export async function countOpenWork(db: Kysely<Database>, deskId: string): Promise<number> {
  const r = await db
    .selectFrom('work')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('desk_id', '=', deskId)
    .where('status', 'in', [...OPEN_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Which of these rows have a message in state `drafted`. */
export async function rowsWithDrafts(db: Kysely<Database>, deskId: string, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  // Found by row (activity_work) and checked for the desk afterwards: a condition on the desk
  // in the query would lead SQLite, with no statistics, to read every activity of the desk.
  const rows = await db
    .selectFrom('activity')
    .select(['obligation_id', 'desk_id'])
    .distinct()
    .where('obligation_id', 'in', ids)
    .where('status', '=', 'drafted')
    .where('kind', '=', 'message')
    .execute();
  return new Set(rows.filter((r) => r.desk_id === deskId && r.obligation_id !== null).map((r) => r.obligation_id!));
}

/** Per arrangement with open rows: how many, how many are due before `today`, and the earliest due date. */
export async function openWorkByArrangement(db: Kysely<Database>, deskId: string, today: string) {
  return db
    .selectFrom('work')
    .select((eb) => [
      'arrangement_id',
      eb.fn.countAll<number>().as('open_work'),
      eb.fn.sum<number>(eb.case().when('due_date', '<', today).then(1).else(0).end()).as('overdue_work'),
      eb.fn.min<string | null>('due_date').as('next_due'),
    ])
    .where('desk_id', '=', deskId)
    .where(sql<boolean>`status in ('open', 'in_progress', 'waiting')`)
    .where('arrangement_id', 'is not', null)
    .groupBy('arrangement_id')
    .execute();
}

/** Open rows counted by class and by whether they are out with somebody (/me permissions). */
export async function openWorkByClass(db: Kysely<Database>, deskId: string) {
  const out = sql<number>`case when waiting_on is null then 0 else 1 end`;
  return db
    .selectFrom('work')
    .select((eb) => ['class', out.as('out'), eb.fn.countAll<number>().as('n')])
    .where('desk_id', '=', deskId)
    .where('status', 'in', [...OPEN_STATUSES])
    .groupBy(['class', out])
    .execute();
}

/** Open rows out with somebody. */
export async function countWaiting(db: Kysely<Database>, deskId: string): Promise<number> {
  const r = await db
    .selectFrom('work')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('desk_id', '=', deskId)
    .where('status', 'in', [...OPEN_STATUSES])
    .where('waiting_on', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Rows finished at or after `since`. */
export async function countClosedSince(db: Kysely<Database>, deskId: string, since: string): Promise<number> {
  const r = await db
    .selectFrom('work')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('desk_id', '=', deskId)
    .where('closed_at', '>=', since)
    .where('status', 'in', [...FINISHED_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The rows watches have opened: which watch, unit and date each was for, and its status. */
export async function watchMadeRows(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('work')
    .select(['watch_id', 'unit_id', 'watch_date', 'status'])
    .where('desk_id', '=', deskId)
    .where('watch_id', 'is not', null)
    .execute();
}

/** The desk a work row is on, whichever desk that is (the owner's CLI sees every desk). */
export async function deskOfWork(db: Kysely<Database>, id: number): Promise<string | undefined> {
  return (await db.selectFrom('work').select('desk_id').where('id', '=', id).executeTakeFirst())?.desk_id;
}
