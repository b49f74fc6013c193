import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../schema.ts';

export async function findDesk(db: Kysely<Database>, id: string): Promise<DeskRow | undefined> {
  return db.selectFrom('desks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A desk by its id or its slug: the owner types either. */
export async function findDeskByRef(db: Kysely<Database>, ref: string): Promise<DeskRow | undefined> {
  return db.selectFrom('desks').selectAll().where((eb) => eb.or([eb('id', '=', ref), eb('slug', '=', ref)])).executeTakeFirst();
}

export async function listDesks(db: Kysely<Database>): Promise<DeskRow[]> {
  return db.selectFrom('desks').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function grantsOf(db: Kysely<Database>, deskId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('grants').select('class').where('desk_id', '=', deskId).execute();
  return new Set(rows.map((r) => r.class));
}

export async function getSetting(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const r = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return r?.value;
}

/** Stores a value unless one is there already, and returns whichever is stored: safe under races. */
export async function settingOnce(db: Kysely<Database>, key: string, value: string): Promise<string> {
  await db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
  return (await getSetting(db, key)) ?? value;
}
