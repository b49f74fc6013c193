import type { Kysely } from 'kysely';
import type { Database, NewWork, WorkRow, WorkUpdate } from '../schema.ts';
import { prepared } from '../prepared.ts';
import { remembered } from '../remembered.ts';
import { dialectOf, holdsRowLocks } from '../dialect.ts';
import { FINISHED_STATUSES, OPEN_STATUSES } from '../../domain/vocab.ts';
import { COUNTED_COLUMNS, COUNTED_FIELDS, NO_DATE_KEY, OpenCounts, type Counted } from './open-counts.ts';

// The only code that writes work rows. Every insert and every change goes through
// `OpenCounts` with the row as it was and as it became, in the caller's transaction, which
// keeps `desks.open_count` and the open counts by class and by arrangement right; that is
// also why status never changes through `updateWork` below.

export { NO_DATE_KEY };

export function dueKey(due: string | null): string {
  return due ?? NO_DATE_KEY;
}

type WorkInsert = Omit<NewWork, 'due_key'>;
type WorkPatch = Omit<WorkUpdate, 'status' | 'due_key' | 'id' | 'desk_id'>;

export async function insertWork(db: Kysely<Database>, row: WorkInsert): Promise<WorkRow> {
  const inserted = await db
    .insertInto('work')
    .values({ ...row, due_key: dueKey(row.due_date ?? null) })
    .returningAll()
    .executeTakeFirstOrThrow();
  await new OpenCounts().count(inserted, 1).write(db);
  return inserted;
}

/**
 * Many rows at once, in statements of a few hundred (an import, a test's large desk), with
 * the counts moved once for all of them; gives their ids, in the order of `rows`. Run it in a
 * transaction when the rows and the counts must land together.
 */
export async function insertWorkMany(
  db: Kysely<Database>,
  rows: readonly WorkInsert[],
  chunk = 400,
): Promise<number[]> {
  const counts = new OpenCounts();
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk).map((r) => ({ ...r, due_key: dueKey(r.due_date ?? null) }));
    // Both databases number a multi-row insert's rows in the order given, and return them so.
    const made = await db.insertInto('work').values(part).returning('id').execute();
    for (const m of made) ids.push(Number(m.id));
    for (const r of part)
      counts.count(
        {
          desk_id: r.desk_id,
          status: r.status,
          class: r.class ?? null,
          waiting_on: r.waiting_on ?? null,
          arrangement_id: r.arrangement_id ?? null,
          due_key: r.due_key,
        },
        1,
      );
  }
  await counts.write(db);
  return ids;
}

function touchesCounts(patch: WorkPatch): boolean {
  return COUNTED_FIELDS.some((f) => f in patch);
}

/** The counted columns of a row before a change to them, held until commit where the database needs it. */
async function countedBefore(db: Kysely<Database>, deskId: string, id: number): Promise<Counted | undefined> {
  return rowCounted.first(db, { deskId, id });
}

const rowCounted = prepared((db, v: { deskId: string; id: number }) => {
  const q = db
    .selectFrom('work')
    .select([...COUNTED_COLUMNS])
    .where('desk_id', '=', v.deskId)
    .where('id', '=', v.id);
  return holdsRowLocks(dialectOf(db)) ? q.forUpdate() : q;
});

type RowChange = { deskId: string; id: number; set: WorkUpdate };

const changeRow = prepared((db, v: RowChange) =>
  db.updateTable('work').set(v.set).where('desk_id', '=', v.deskId).where('id', '=', v.id),
);

const changeCounted = prepared((db, v: RowChange) =>
  db
    .updateTable('work')
    .set(v.set)
    .where('desk_id', '=', v.deskId)
    .where('id', '=', v.id)
    .returning([...COUNTED_COLUMNS]),
);

const changeStatus = prepared((db, v: RowChange & { from: string }) =>
  db
    .updateTable('work')
    .set(v.set)
    .where('desk_id', '=', v.deskId)
    .where('id', '=', v.id)
    .where('status', '=', v.from)
    .returning([...COUNTED_COLUMNS]),
);

function patchValues(patch: WorkPatch): WorkUpdate {
  const values: WorkUpdate = { ...patch };
  if ('due_date' in patch) values.due_key = dueKey(patch.due_date ?? null);
  return values;
}
const oneRow = prepared((db, v: { deskId: string; id: number }) =>
  db.selectFrom('work').selectAll().where('desk_id', '=', v.deskId).where('id', '=', v.id),
);

export async function findWork(db: Kysely<Database>, deskId: string, id: number): Promise<WorkRow | undefined> {
  return oneRow.first(db, { deskId, id });
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
  patch: WorkPatch,
  /** The row as this transaction read it after locking it (`lockRow`), when the caller has it: not read again. */
  current?: Counted,
): Promise<void> {
  const values = { deskId, id, set: patchValues(patch) };
  if (!touchesCounts(patch)) {
    await changeRow.run(db, values);
    return;
  }
  const before = current && db.isTransaction ? current : await countedBefore(db, deskId, id);
  const after = await changeCounted.first(db, values);
  if (before && after) await new OpenCounts().move(before, after).write(db);
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
  patch: WorkPatch = {},
): Promise<boolean> {
  // When the patch leaves the counted columns alone, the row as it was is the row as it is in `from`.
  const before = touchesCounts(patch) ? await countedBefore(db, deskId, id) : undefined;
  const after = await changeStatus.first(db, { deskId, id, from, set: { ...patchValues(patch), status: to } });
  if (!after) return false;
  await new OpenCounts().move({ ...(before ?? after), status: from }, after).write(db);
  return true;
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

/**
 * Which of these rows have a message in state `drafted`, each with the address its newest
 * draft goes to (null when it names none).
 */
export async function rowsWithDrafts(
  db: Kysely<Database>,
  deskId: string,
  ids: number[],
): Promise<Map<number, string | null>> {
  const drafts = new Map<number, string | null>();
  if (ids.length === 0) return drafts;
  // Found by row (activity_work) and checked for the desk afterwards: a condition on the desk
  // in the query would lead SQLite, with no statistics, to read every activity of the desk.
  const rows = await db
    .selectFrom('activity')
    .select(['obligation_id', 'desk_id', 'to_address'])
    .where('obligation_id', 'in', ids)
    .where('status', '=', 'drafted')
    .where('kind', '=', 'message')
    .orderBy('id')
    .execute();
  for (const r of rows) if (r.desk_id === deskId && r.obligation_id !== null) drafts.set(r.obligation_id, r.to_address);
  return drafts;
}

/** Rows finished at or after `since`. */
export async function countClosedSince(db: Kysely<Database>, deskId: string, since: string): Promise<number> {
  return remembered(db, `closed ${deskId} ${since}`, () => readClosedSince(db, deskId, since));
}

async function readClosedSince(db: Kysely<Database>, deskId: string, since: string): Promise<number> {
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
    .select(['watch_id', 'unit_id', 'watch_date', 'kind', 'status'])
    .where('desk_id', '=', deskId)
    .where('watch_date', 'is not', null)
    .execute();
}

/** A watch's kind corrected: the rows it made take it too, so they stay its rows once it is removed (P-watches-5). */
export async function setWatchRowsKind(db: Kysely<Database>, deskId: string, watchId: number, kind: string) {
  await db.updateTable('work').set({ kind }).where('desk_id', '=', deskId).where('watch_id', '=', watchId).execute();
}

/** The rows watches made for one unit, as `watchMadeRows` reads them for a whole desk. */
export async function watchMadeRowsOfUnit(db: Kysely<Database>, deskId: string, unitId: number) {
  return db
    .selectFrom('work')
    .select(['watch_id', 'unit_id', 'watch_date', 'kind', 'status'])
    .where('desk_id', '=', deskId)
    .where('unit_id', '=', unitId)
    .where('watch_date', 'is not', null)
    .execute();
}

/** The desk a work row is on, whichever desk that is (the owner's CLI sees every desk). */
export async function deskOfWork(db: Kysely<Database>, id: number): Promise<string | undefined> {
  return (await db.selectFrom('work').select('desk_id').where('id', '=', id).executeTakeFirst())?.desk_id;
}
