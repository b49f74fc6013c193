import type { Insertable, Kysely } from 'kysely';
import type { ArrangementsTable, Database, DomainsTable, PlaybooksTable, UnitsTable, WatchesTable } from '../schema.ts';

// Inserts of a desk's records (what a business file brings in). Each returns the new id
// where the caller needs it to link what follows. Connections are written through
// connections.ts, which seals their secrets.

export { insertConnection } from './connections.ts';

export async function insertArrangement(db: Kysely<Database>, row: Insertable<ArrangementsTable>): Promise<number> {
  return (await db.insertInto('arrangements').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function insertUnit(db: Kysely<Database>, row: Insertable<UnitsTable>): Promise<number> {
  return (await db.insertInto('units').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function insertWatch(db: Kysely<Database>, row: Insertable<WatchesTable>): Promise<void> {
  await db.insertInto('watches').values(row).execute();
}

export async function insertDomain(db: Kysely<Database>, row: Insertable<DomainsTable>): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

export async function insertPlaybook(db: Kysely<Database>, row: Insertable<PlaybooksTable>): Promise<number> {
  return (await db.insertInto('playbooks').values(row).returning('id').executeTakeFirstOrThrow()).id;
}
