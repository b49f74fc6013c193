import type { Insertable, Kysely } from 'kysely';
import type { ConnectionsTable, Database } from '../schema.ts';
import { isSealed, sealedUnder, type Sealer, SecretKeyError } from '../cipher.ts';
import { sealerOf } from '../secret-key.ts';
import { atomicallyOn } from '../tx.ts';
import { getSetting } from './desks.ts';
import { isSecretSetting } from '../../domain/vocab.ts';

// Connections hold their secrets sealed (AES-256-GCM under the master key): every read and
// write of `connections.config` goes through here, so the rest of Desk sees clear values and
// the database never holds them.

type Json = Record<string, unknown>;

function parsed(text: string): Json | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

/**
 * Applies `change` to each secret setting (isSecretSetting, at any depth, lists included);
 * null when nothing changed.
 */
function mapSecrets(text: string, change: (value: unknown) => unknown): string | null {
  const config = parsed(text);
  if (!config) return null;
  let changed = false;
  const walk = (value: unknown, secret: boolean): unknown => {
    if (Array.isArray(value)) {
      const next = value.map((v) => walk(v, secret));
      return next.some((v, i) => v !== value[i]) ? next : value;
    }
    if (value !== null && typeof value === 'object') {
      let out: Json | null = null;
      for (const [k, v] of Object.entries(value as Json)) {
        const next = walk(v, secret || isSecretSetting(k));
        if (next === v) continue;
        out ??= { ...(value as Json) };
        out[k] = next;
      }
      return out ?? value;
    }
    if (!secret) return value;
    const next = change(value);
    if (next !== value) changed = true;
    return next;
  };
  const out = walk(config, false);
  return changed ? JSON.stringify(out) : null;
}

/**
 * `text` as stored, whose sealed values stay as they are; or, `opened`, settings in clear, where
 * a value that merely looks sealed (a password given as `sealed:v1:…`) is a secret like any
 * other: kept as it looks, it would name a key no process holds, and no process would start.
 */
function sealWith(sealer: Sealer, text: string, opened = false): string {
  // An empty setting holds no secret: sealed, it would read as one that an export left out.
  return (
    mapSecrets(text, (v) =>
      (typeof v === 'string' && v !== '' && (opened || !isSealed(v))) || typeof v === 'number'
        ? sealer.seal(String(v))
        : v,
    ) ?? text
  );
}

function openWith(sealer: Sealer, text: string): string {
  // A value still in clear (written before sealing, or by hand) reads as it is.
  return mapSecrets(text, (v) => (isSealed(v) ? sealer.open(v) : v)) ?? text;
}

/** A config (JSON text) with its secrets sealed under the handle's key. */
export function sealConfig(db: Kysely<Database>, text: string): string {
  return sealWith(sealerOf(db), text);
}

/**
 * A config (JSON text) sealed for writing. A process started before `desk secrets rotate` still
 * holds the old key, and what it sealed now no process could open beside the rest: when the
 * stored secrets are all under another key, nothing new is sealed and the write is refused.
 */
async function sealForWrite(db: Kysely<Database>, text: string): Promise<string> {
  const sealer = sealerOf(db);
  const sealed = sealWith(sealer, text, true);
  if (sealed === text) return text;
  // Within one transaction the answer holds once found: what it writes is sealed under this
  // key. An import of thousands of connections then reads the stored ones once, not once each.
  if (db.isTransaction && underThisKey.has(db)) return sealed;
  const recorded = await getSetting(db, KEY_IN_USE);
  const under = await sealedKeyFingerprints(db);
  if (recorded !== undefined && recorded !== sealer.fingerprint) under.add(recorded);
  if (under.size > 0 && !under.has(sealer.fingerprint))
    throw new SecretKeyError(
      `The desk's secrets are sealed under the key with fingerprint ${[...under].join(', ')}, and this process started with the key ${sealer.fingerprint}: the key was changed (desk secrets rotate) after it started. Nothing was saved; restart it with the new key, then save again.`,
    );
  if (db.isTransaction) underThisKey.add(db);
  return sealed;
}

/** Transactions that found every stored secret sealed under this process's key. */
const underThisKey = new WeakSet<Kysely<Database>>();

/** A config (JSON text) with its secrets opened; throws SecretKeyError when the key is not theirs. */
export function openConfig(db: Kysely<Database>, text: string): string {
  return openWith(sealerOf(db), text);
}

export async function insertConnection(db: Kysely<Database>, row: Insertable<ConnectionsTable>): Promise<number> {
  const values = { ...row, config: await sealForWrite(db, row.config) };
  return (await db.insertInto('connections').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/** The desk's mail connections in status `connected`: the first, by id, is its mailbox. */
function connectedMail(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('connections')
    .where('desk_id', '=', deskId)
    .where('category', '=', 'mail')
    .where('status', '=', 'connected');
}

/** The desk's first connected mail connection, by id, its config with secrets opened. */
export async function connectedMailbox(db: Kysely<Database>, deskId: string) {
  const row = await connectedMail(db, deskId)
    .select(['id', 'provider', 'config', 'send_fault'])
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row && { ...row, config: openConfig(db, row.config) };
}

/** A connection's settings (JSON text, secrets opened), if the connection is on the desk. */
export async function connectionConfig(db: Kysely<Database>, deskId: string, id: number): Promise<string | undefined> {
  const c = await db
    .selectFrom('connections')
    .select('config')
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .executeTakeFirst();
  return c && openConfig(db, c.config);
}

export async function connectionsOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('connections')
    .select(['id', 'provider', 'name', 'category', 'auth_type', 'status'])
    .where('desk_id', '=', deskId)
    .execute();
}

/** The desk's mail connections, each config with its secrets opened, for reading the mailbox. */
export async function mailConnections(db: Kysely<Database>, deskId: string) {
  const rows = await db
    .selectFrom('connections')
    .select(['id', 'name', 'status', 'config'])
    .where('desk_id', '=', deskId)
    .where('category', '=', 'mail')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((r) => ({ ...r, config: openConfig(db, r.config) }));
}

/** The fingerprints of every key a stored secret is sealed under (one, unless something is wrong). */
export async function sealedKeyFingerprints(db: Kysely<Database>): Promise<Set<string>> {
  const out = new Set<string>();
  for (const { config } of await db.selectFrom('connections').select('config').execute())
    mapSecrets(config, (v) => {
      if (isSealed(v)) out.add(sealedUnder(v));
      return v;
    });
  return out;
}

/**
 * The setting naming the key the desk's secrets are sealed under, written by a rotation: with no
 * secret stored yet, nothing else tells a process started before it that its key was replaced.
 */
export const KEY_IN_USE = 'secret_key_fingerprint';

/** Records `fingerprint` as the key in use, in the caller's transaction. */
export async function recordKeyInUse(db: Kysely<Database>, fingerprint: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: KEY_IN_USE, value: fingerprint })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: fingerprint }))
    .execute();
}

/** The key recorded as the one in use, if a rotation recorded one. */
export async function keyInUse(db: Kysely<Database>): Promise<string | undefined> {
  return getSetting(db, KEY_IN_USE);
}

/** Rewrites every config `change` alters, in one transaction; the number of rows rewritten. */
async function rewriteAll(
  db: Kysely<Database>,
  change: (text: string) => string,
  also?: (trx: Kysely<Database>) => Promise<void>,
): Promise<number> {
  return atomicallyOn(db, async (trx) => {
    let n = 0;
    for (const { id, config } of await trx.selectFrom('connections').select(['id', 'config']).orderBy('id').execute()) {
      const next = change(config);
      if (next === config) continue;
      await trx.updateTable('connections').set({ config: next }).where('id', '=', id).execute();
      n++;
    }
    await also?.(trx);
    return n;
  });
}

/** Seals secrets still stored in clear (rows from before sealing); run at start. */
export async function sealClearSecrets(db: Kysely<Database>): Promise<number> {
  const sealer = sealerOf(db);
  const seal = (text: string) => sealWith(sealer, text);
  // Read first: with nothing left in clear (every start but the first after sealing came in),
  // opening the database writes nothing and waits for no other process's write.
  const stored = await db.selectFrom('connections').select('config').execute();
  if (stored.every(({ config }) => seal(config) === config)) return 0;
  return rewriteAll(db, seal);
}

/** Opens every secret under `from` and seals it under `to`, all in one transaction. */
export async function resealSecrets(db: Kysely<Database>, from: Sealer, to: Sealer): Promise<number> {
  return rewriteAll(
    db,
    (text) => sealWith(to, openWith(from, text), true),
    (trx) => recordKeyInUse(trx, to.fingerprint),
  );
}

/**
 * Every connection on the desk with its stored settings (JSON text) as stored: secrets stay
 * sealed, for a reader (the business file's export) that leaves them out unopened.
 */
export async function connectionSettingsOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('connections')
    .select(['id', 'provider', 'name', 'category', 'auth_type', 'status', 'config'])
    .where('desk_id', '=', deskId)
    .orderBy('id')
    .execute();
}

// The owner's edits of connections: settings go in and come out with their secrets in clear,
// and are sealed and opened here like every other read and write of the config column.

export interface ConnectionValues {
  provider: string;
  name: string;
  category: string;
  auth_type: string;
  status: string;
  config: Record<string, unknown>;
}

/** A stored config with its secrets opened, as an object ({} when it is not one). */
function settingsOf(db: Kysely<Database>, config: string): Record<string, unknown> {
  return parsed(openConfig(db, config)) ?? {};
}

/** Every connection of the desk with its settings, by id. */
export async function connectionsWithConfig(db: Kysely<Database>, deskId: string) {
  const rows = await db
    .selectFrom('connections')
    .select(['id', 'provider', 'name', 'category', 'auth_type', 'status', 'config', 'send_fault', 'send_fault_at'])
    .where('desk_id', '=', deskId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, config: settingsOf(db, r.config) }));
}

/** One connection of the desk with its settings. */
export async function connectionById(db: Kysely<Database>, deskId: string, id: number) {
  const r = await db
    .selectFrom('connections')
    .select(['id', 'provider', 'name', 'category', 'auth_type', 'status', 'config', 'send_fault', 'send_fault_at'])
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r ? { ...r, config: settingsOf(db, r.config) } : undefined;
}

export async function addConnection(
  db: Kysely<Database>,
  deskId: string,
  v: ConnectionValues,
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('connections')
    .values({ ...v, desk_id: deskId, config: await sealForWrite(db, JSON.stringify(v.config)), created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function changeConnection(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  v: ConnectionValues,
): Promise<void> {
  await db
    .updateTable('connections')
    // A fault of the old settings says nothing of the new ones.
    .set({ ...v, config: await sealForWrite(db, JSON.stringify(v.config)), send_fault: null, send_fault_at: null })
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .execute();
}

export async function dropConnection(db: Kysely<Database>, deskId: string, id: number): Promise<boolean> {
  const r = await db.deleteFrom('connections').where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A send through the mailbox never reached its server (`fault`), or one did (null). */
export async function noteSendFault(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  fault: { reason: string; at: string } | null,
): Promise<void> {
  let q = db
    .updateTable('connections')
    .set({ send_fault: fault?.reason ?? null, send_fault_at: fault?.at ?? null })
    .where('desk_id', '=', deskId)
    .where('id', '=', id);
  // A send that gets through writes only when there was a fault to clear.
  if (!fault) q = q.where('send_fault', 'is not', null);
  await q.execute();
}

/** The desk's mailbox, as `connectedMailbox` finds it, without opening its settings. */
export async function mailboxOf(db: Kysely<Database>, deskId: string) {
  return connectedMail(db, deskId).select(['id', 'send_fault']).orderBy('id', 'asc').limit(1).executeTakeFirst();
}

/** Whether the desk's mailbox has a send fault no send has cleared yet. */
export async function mailboxSendFaulted(db: Kysely<Database>, deskId: string): Promise<boolean> {
  const row = await connectedMail(db, deskId)
    .select('id')
    .where('send_fault', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
