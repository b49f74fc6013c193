import type { Insertable, Kysely } from 'kysely';
import type { ApiKeyRow, ApiKeysTable, Database, DeskRow, DesksTable } from '../schema.ts';
import { prepared } from '../prepared.ts';
import { remembered } from '../remembered.ts';
import { atomicallyOn } from '../tx.ts';

export async function findDesk(db: Kysely<Database>, id: string): Promise<DeskRow | undefined> {
  return db.selectFrom('desks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A desk by its id or its slug: the owner types either. */
export async function findDeskByRef(db: Kysely<Database>, ref: string): Promise<DeskRow | undefined> {
  return db
    .selectFrom('desks')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', ref), eb('slug', '=', ref)]))
    .executeTakeFirst();
}

export async function listDesks(db: Kysely<Database>): Promise<DeskRow[]> {
  return db.selectFrom('desks').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function grantsOf(db: Kysely<Database>, deskId: string): Promise<ReadonlySet<string>> {
  return remembered(
    db,
    `grants ${deskId}`,
    async () => {
      const rows = await db.selectFrom('grants').select('class').where('desk_id', '=', deskId).execute();
      return new Set(rows.map((r) => r.class));
    },
    { tables: ['grants'] },
  );
}

export async function getSetting(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const r = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return r?.value;
}

/**
 * Stores a value unless one is there already, and returns whichever is stored: safe under races.
 * Read first, so a value already there costs no write (a write waits on another process's lock).
 */
export async function settingOnce(db: Kysely<Database>, key: string, value: string): Promise<string> {
  const kept = await getSetting(db, key);
  if (kept !== undefined) return kept;
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getSetting(db, key)) ?? value;
}

/** Grants a class on the desk; false when it was granted already. */
export async function addGrant(db: Kysely<Database>, deskId: string, cls: string, now: string): Promise<boolean> {
  const r = await db
    .insertInto('grants')
    .values({ desk_id: deskId, class: cls, created_at: now })
    .onConflict((oc) => oc.columns(['desk_id', 'class']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Withdraws a class; false when it was not granted. */
export async function removeGrant(db: Kysely<Database>, deskId: string, cls: string): Promise<boolean> {
  const r = await db.deleteFrom('grants').where('desk_id', '=', deskId).where('class', '=', cls).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function insertDesk(db: Kysely<Database>, row: Insertable<DesksTable>): Promise<DeskRow> {
  return db.insertInto('desks').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Removes the desk (everything on it goes with it) and its idempotency records, in one transaction. */
export async function removeDeskRows(db: Kysely<Database>, deskId: string): Promise<void> {
  await atomicallyOn(db, async (trx) => {
    await trx.deleteFrom('idempotency').where('desk_id', '=', deskId).execute();
    await trx.deleteFrom('desks').where('id', '=', deskId).execute();
  });
}

/** Whether a row of `table` with this id is on the desk. */
export async function onDesk(
  db: Kysely<Database>,
  table: 'arrangements' | 'units',
  deskId: string,
  id: number,
): Promise<boolean> {
  return (
    (await db.selectFrom(table).select('id').where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst()) !==
    undefined
  );
}

export async function insertKey(db: Kysely<Database>, row: Insertable<ApiKeysTable>) {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function keysOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'desk_id', 'name', 'prefix', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'])
    .where('desk_id', '=', deskId)
    .orderBy('id')
    .execute();
}

/** Records a key's use, at most once per `since` window, so a busy program does not write on every request. */
export async function touchKey(db: Kysely<Database>, id: number, now: string, since: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}

/** Sets when a key stops working. */
export async function setKeyExpiry(db: Kysely<Database>, id: number, expiresAt: string): Promise<void> {
  await db.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function findKey(db: Kysely<Database>, id: number) {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

// Every column of a desk, by name: a column added to the table and not here fails to compile.
const DESK_FIELDS: Record<keyof DeskRow, true> = {
  id: true,
  name: true,
  slug: true,
  plan: true,
  status: true,
  timezone: true,
  currency: true,
  broker: true,
  hours: true,
  daily_cap: true,
  act_within_days: true,
  paused: true,
  open_count: true,
  created_at: true,
};
const DESK_COLUMNS = Object.keys(DESK_FIELDS) as (keyof DeskRow)[];

export interface FoundKey {
  key: ApiKeyRow;
  /** None when the desk is gone. */
  desk: DeskRow | undefined;
}

/** What readKey reads from. */
const KEY_TABLES = ['api_keys', 'desks'] as const;

/**
 * The key stored under this hash, and its desk: one statement, so one round trip on
 * PostgreSQL, for what every request asks first. Remembered while the store is unchanged: on
 * PostgreSQL, while it is at `seen`, the version the request read as it arrived.
 */
export async function findKeyByHash(db: Kysely<Database>, hash: string, seen?: string): Promise<FoundKey | undefined> {
  return remembered(
    db,
    `key ${hash}`,
    () => readKey(db, hash),
    seen === undefined ? { tables: KEY_TABLES } : { at: seen },
  );
}

const keyAndDesk = prepared((db, v: { hash: string }) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('desks as d', 'd.id', 'k.desk_id')
    .selectAll('k')
    .select(DESK_COLUMNS.map((c) => `d.${c} as of_desk_${c}` as const))
    .where('k.hash', '=', v.hash),
);

async function readKey(db: Kysely<Database>, hash: string): Promise<FoundKey | undefined> {
  const row: Record<string, unknown> | undefined = await keyAndDesk.first(db, { hash });
  if (!row) return undefined;
  const key: Record<string, unknown> = {};
  const desk: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith('of_desk_')) desk[name.slice(8)] = value;
    else key[name] = value;
  }
  return { key: key as unknown as ApiKeyRow, desk: desk.id == null ? undefined : (desk as unknown as DeskRow) };
}

/** Revokes the key unless it is revoked already; whether this call revoked it. */
export async function markKeyRevoked(db: Kysely<Database>, id: number, at: string): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The rails on what the desk does on its own. */
export async function updateDeskRails(
  db: Kysely<Database>,
  deskId: string,
  patch: Partial<Pick<DeskRow, 'hours' | 'daily_cap' | 'act_within_days' | 'paused'>>,
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('desks').set(patch).where('id', '=', deskId).execute();
}
