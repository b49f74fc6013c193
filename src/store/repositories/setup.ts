import type { Kysely, Updateable } from 'kysely';
import type { ArrangementsTable, Database, UnitsTable, WatchesTable } from '../schema.ts';

// The owner's edits of a desk's arrangements, units, watches and which sign-in its playbooks
// use. Inserts of new ones are in records.ts, shared with the business file.

export async function updateArrangement(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  v: Updateable<ArrangementsTable>,
): Promise<void> {
  await db.updateTable('arrangements').set(v).where('desk_id', '=', deskId).where('id', '=', id).execute();
}

export async function updateUnit(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  v: Updateable<UnitsTable>,
): Promise<void> {
  await db.updateTable('units').set(v).where('desk_id', '=', deskId).where('id', '=', id).execute();
}

export async function updateWatch(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  v: Updateable<WatchesTable>,
): Promise<void> {
  await db.updateTable('watches').set(v).where('desk_id', '=', deskId).where('id', '=', id).execute();
}

export async function findWatch(db: Kysely<Database>, deskId: string, id: number) {
  return db.selectFrom('watches').selectAll().where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst();
}

/** The position after the desk's last unit. */
export async function nextUnitPosition(db: Kysely<Database>, deskId: string): Promise<number> {
  const r = await db
    .selectFrom('units')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('desk_id', '=', deskId)
    .executeTakeFirst();
  return r?.last === null || r?.last === undefined ? 0 : Number(r.last) + 1;
}

export async function deleteSetupRow(
  db: Kysely<Database>,
  table: 'arrangements' | 'units' | 'watches',
  deskId: string,
  id: number,
): Promise<boolean> {
  // The schema takes an arrangement's activity with it: only its own notes are to go. What was
  // written on its rows (messages sent and prepared, run reports) stays with the rows, unlinked.
  if (table === 'arrangements')
    await db
      .updateTable('activity')
      .set({ arrangement_id: null })
      .where('desk_id', '=', deskId)
      .where('arrangement_id', '=', id)
      .where((eb) => eb.or([eb('kind', '!=', 'note'), eb('obligation_id', 'is not', null)]))
      .execute();
  const r = await db.deleteFrom(table).where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function playbooksOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('playbooks')
    .select(['id', 'name', 'connection_id'])
    .where('desk_id', '=', deskId)
    .orderBy('name')
    .execute();
}

/** Points these playbooks at a sign-in, and those that pointed at it and are not listed at none. */
export async function signInPlaybooksWith(
  db: Kysely<Database>,
  deskId: string,
  connectionId: number,
  playbookIds: number[],
): Promise<void> {
  let clear = db
    .updateTable('playbooks')
    .set({ connection_id: null })
    .where('desk_id', '=', deskId)
    .where('connection_id', '=', connectionId);
  if (playbookIds.length > 0) clear = clear.where('id', 'not in', playbookIds);
  await clear.execute();
  if (playbookIds.length > 0)
    await db
      .updateTable('playbooks')
      .set({ connection_id: connectionId })
      .where('desk_id', '=', deskId)
      .where('id', 'in', playbookIds)
      .execute();
}

/** What is tied to an arrangement: its notes, and the work rows and units that belong to it. */
export async function arrangementTies(
  db: Kysely<Database>,
  deskId: string,
  id: number,
): Promise<{ notes: number; rows: number; units: number }> {
  const count = async (table: 'activity' | 'work' | 'units', note = false) => {
    let q = db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('desk_id', '=', deskId)
      .where('arrangement_id', '=', id);
    // The arrangement's own notes: what is written on its rows stays with them.
    if (note) q = q.where('kind', '=', 'note').where('obligation_id', 'is', null);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  return { notes: await count('activity', true), rows: await count('work'), units: await count('units') };
}
