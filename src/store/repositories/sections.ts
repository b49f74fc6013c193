import type { Insertable, Kysely } from 'kysely';
import type { Database, SectionRow, SectionsTable } from '../schema.ts';

export async function sectionsOf(db: Kysely<Database>, deskId: string): Promise<SectionRow[]> {
  return db
    .selectFrom('sections')
    .selectAll()
    .where('desk_id', '=', deskId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The ids and positions taken on the desk. */
export async function sectionSlots(db: Kysely<Database>, deskId: string) {
  return db.selectFrom('sections').select(['id', 'position', 'title']).where('desk_id', '=', deskId).execute();
}

export async function insertSection(db: Kysely<Database>, row: Insertable<SectionsTable>): Promise<void> {
  await db.insertInto('sections').values(row).execute();
}

export async function findSection(db: Kysely<Database>, deskId: string, id: string): Promise<SectionRow | undefined> {
  return db.selectFrom('sections').selectAll().where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst();
}

export async function deleteSection(db: Kysely<Database>, deskId: string, id: string): Promise<void> {
  await db.deleteFrom('sections').where('desk_id', '=', deskId).where('id', '=', id).execute();
}
