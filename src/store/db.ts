import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteAdapter, SqliteDialect } from 'kysely';
import type { Database } from './schema.ts';
import type { DialectName } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import { checkKey, resolveKey, withSealer, type SecretKey } from './secret-key.ts';
import { keyInUse, recordKeyInUse, sealClearSecrets, sealedKeyFingerprints } from './repositories/connections.ts';
import { isPostgresUrl, noDeskDatabase, redact, sqliteFile, StoreUnusable } from './location.ts';
import { sqliteHandle } from './sqlite-statements.ts';
import { type Deadline, namingPool, STATEMENT_TIMEOUT_MS } from './postgres-statements.ts';
import { SNAPSHOT_VERSION, withRemembering } from './remembered.ts';
import { askOneAtATime } from './freshness.ts';
import { withCommitGroups } from './commit-group.ts';
import { checkpointApart } from './checkpointer.ts';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, with any password removed: safe to print. */
  location: string;
  /** The master key that seals connection secrets, and where it came from. */
  secretKey: SecretKey;
  /**
   * After values were replaced (secrets sealed or re-sealed): on SQLite, moves the write-ahead
   * log into the file and empties it, so no earlier page image keeps the old values; nothing to
   * do on PostgreSQL, whose dumps hold live rows only.
   */
  forgetReplaced(): Promise<void>;
  /**
   * Awaited by each request as it arrives: resolves once the store has been asked, after this
   * call, what has been committed, so the request reads every commit made before it arrived.
   * Requests that arrive together share one asking (freshness.ts). Gives, on PostgreSQL, the
   * version that asking read, under which the request's reads are remembered (P-speed-5).
   */
  fresh(): Promise<string | undefined>;
  /** The changes this opening made to a database an earlier version wrote (none when it was new or up to date). */
  upgraded: string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  migrate?: boolean;
  /** DESK_SECRET_KEY; without it a SQLite database uses the key file beside it, PostgreSQL refuses. */
  secretKey?: string | null;
  /** A long-running server: SQLite's checkpoints run on a thread of their own (checkpointer.ts). */
  serving?: boolean;
  /** Only a database Desk has already made: a PostgreSQL database with no Desk tables is refused, not filled. */
  existing?: boolean;
  /**
   * PostgreSQL: how long a statement may go unanswered once the store is open before its
   * connection is dropped (DESK_DATABASE_TIMEOUT); 0 for no limit.
   */
  statementTimeoutMs?: number;
  /** PostgreSQL: how long a new connection may take to be answered. */
  connectTimeoutMs?: number;
  /** Told the changes an earlier version's database is about to be given, before they start. */
  upgrading?: (pending: string[], location: string) => void;
}

/** A server that answers at all answers a new connection in well under a second; this leaves room for a slow network. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The database named holds no Desk data: a mistyped name, or Desk has not been started on it. */
export class NoDeskDatabase extends StoreUnusable {}

export { isPostgresUrl, redact };

/**
 * Opens the store named by a postgres:// URL or a SQLite file path, applies migrations, and
 * settles the secret key: refused when it is not the one the stored secrets were sealed under,
 * and any secret still in clear (a database from before sealing) is sealed now.
 */
export async function openStore(target: string, opts: OpenOptions = {}): Promise<Store> {
  let db: Kysely<Database>;
  let version: (() => string) | null = null;
  let fresh: () => Promise<string | undefined>;
  let dialect: DialectName;
  let location: string;
  let file: string | null = null;
  let forgetReplaced = async () => {};
  let closeFirst: (() => Promise<void>) | null = null;
  // PostgreSQL's statements wait with no deadline while the store opens: a migration's CREATE
  // INDEX on a large desk may take minutes. It is set once the store is open.
  const deadline: Deadline = { ms: 0 };
  if (!isPostgresUrl(target) && !target.startsWith('file:') && /^[a-z][a-z0-9+.-]*:\/\//i.test(target))
    throw new StoreUnusable(
      `The database must be a SQLite file path (such as ./data/desk.db) or a postgres:// URL, got "${target.replace(/\/\/[^@/]*@/, '//…@')}".`,
    );
  if (isPostgresUrl(target)) {
    // Before connecting, so a missing key is the first thing said.
    if (!opts.secretKey) resolveKey({ dialect: 'postgres', file: null, envKey: null, sealedUnder: new Set() });
    // The PostgreSQL driver loads only for a postgres:// URL: a SQLite desk never needs it.
    const { default: pg } = await import('pg');
    // node-postgres returns int8 (count(*), sum()) as strings; our counts fit in a JS number.
    pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    const pool = new pg.Pool({
      connectionString: target,
      max: 10,
      // A server that accepts the connection but never answers its start-up would hold it for ever.
      connectionTimeoutMillis: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    });
    // An idle connection the server drops (a restart, an administrator) is replaced on next use;
    // without a listener the pool's error would end the process.
    pool.on('error', () => undefined);
    // The pool listens only to idle connections: one lost while a statement is in flight
    // (the server gone, a network cut) is also emitted on its client, and with no listener
    // there that would end the process. The statement is failed all the same, and the pool
    // drops the connection when it is given back.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const pgDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingPool(pool, { deadline }) }) });
    db = pgDb;
    fresh = askOneAtATime(
      async () => (await sql<{ v: string }>`select ${SNAPSHOT_VERSION} as v`.execute(pgDb)).rows[0]!.v,
    );
    dialect = 'postgres';
    location = redact(target);
    await reachable(pgDb, location);
    if (opts.existing && !(await hasDeskTables(pgDb))) {
      await pgDb.destroy();
      throw new NoDeskDatabase(noDeskDatabase(location));
    }
  } else {
    const name = sqliteFile(target);
    if (name !== ':memory:') {
      makeFolderFor(name);
      file = name;
    }
    const sqlite = openSqlite(name, opts.existing === true);
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Freed and overwritten content is zeroed, so a password sealed over (or a revoked session)
    // does not linger in the file's free space.
    sqlite.pragma('secure_delete = ON');
    // What a savepoint must be able to undo is kept in memory, not in a temporary file: every
    // transaction runs in one (commit-group.ts), and a file costs system calls for each page.
    sqlite.pragma('temp_store = MEMORY');
    forgetReplaced = async () => {
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    };
    const checkpointer = opts.serving && file ? checkpointApart(sqlite, file) : null;
    const handle = sqliteHandle(sqlite, checkpointer ? checkpointer.wrote : undefined);
    closeFirst = checkpointer ? checkpointer.close : null;
    version = handle.version;
    fresh = handle.fresh;
    db = withCommitGroups(new Kysely<Database>({ dialect: new WholeUpgrades({ database: handle.database }) }));
    dialect = 'sqlite';
    location = path.resolve(name);
  }
  try {
    const upgraded =
      opts.migrate !== false
        ? await migrateToLatest(db, dialect, location, (pending) => opts.upgrading?.(pending, location))
        : [];
    const sealedUnder = await sealedKeyFingerprints(db);
    const secretKey = resolveKey({ dialect, file, envKey: opts.secretKey, sealedUnder });
    checkKey(secretKey, sealedUnder);
    const sealed = withSealer(withRemembering(db, version ?? undefined), secretKey.sealer);
    if (opts.migrate !== false && (await sealClearSecrets(sealed)) > 0) await forgetReplaced();
    // With no secret sealed, a key recorded by a rotation binds nothing yet: the key this
    // process starts with becomes the one recorded, rather than refusing every password saved.
    if (opts.migrate !== false && sealedUnder.size === 0) {
      const recorded = await keyInUse(db);
      if (recorded !== undefined && recorded !== secretKey.sealer.fingerprint)
        await recordKeyInUse(db, secretKey.sealer.fingerprint);
    }
    deadline.ms = opts.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
    return {
      db: sealed,
      dialect,
      location,
      secretKey,
      forgetReplaced,
      fresh,
      upgraded,
      close: async () => {
        await closeFirst?.();
        await db.destroy();
      },
    };
  } catch (err) {
    await closeFirst?.();
    await db.destroy();
    throw err;
  }
}

/**
 * SQLite takes its schema changes in a transaction as it takes any write, which Kysely's own
 * adapter does not claim; the migrator then commits each statement apart, and a process stopped
 * partway through an upgrade leaves a change half made that the next start cannot make again.
 * Claimed, an upgrade is one transaction with its record of what was applied.
 */
class WholeUpgrades extends SqliteDialect {
  override createAdapter() {
    return new (class extends SqliteAdapter {
      override get supportsTransactionalDdl() {
        return true;
      }
    })();
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);

/** Says, in a sentence, why a PostgreSQL server cannot be used, before anything is asked of it. */
async function reachable(db: Kysely<Database>, location: string): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (err) {
    await db.destroy();
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'ECONNREFUSED'
        ? 'nothing answers there; is the server running?'
        : e.code === 'ENOTFOUND'
          ? 'no such host'
          : e.code === 'ERR_INVALID_URL'
            ? 'it is not a URL that can be read. A user or password holding @ : / ? # or % gives each percent-encoded (@ as %40, : as %3A, / as %2F, ? as %3F, # as %23, % as %25), and a port is a number from 1 to 65535.'
            : (e.message ?? String(err));
    throw new StoreUnusable(`Cannot use the PostgreSQL database at ${location}: ${why}`, UNREACHABLE.has(e.code ?? ''));
  }
}

/**
 * Makes the folders a new SQLite file needs, one at a time: a path that cannot hold one (under
 * /proc, or under a file) is then a plain error, where a recursive mkdir can loop for ever.
 */
function makeFolderFor(file: string): void {
  const missing: string[] = [];
  let dir = path.dirname(path.resolve(file));
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) {
    missing.unshift(dir);
    dir = path.dirname(dir);
  }
  if (!fs.statSync(dir).isDirectory())
    throw new StoreUnusable(`Cannot make a database at ${file}: ${dir} is a file, not a folder.`);
  for (const d of missing) {
    try {
      fs.mkdirSync(d);
    } catch (err) {
      throw new StoreUnusable(`Cannot make the folder ${d} for the database: ${(err as Error).message}`);
    }
  }
}

/**
 * What SQLite's "unable to open database file" or "readonly database" leaves unsaid: a folder
 * given for the file, or a file or folder this user may not read or write (SQLite writes beside
 * the file, its -wal and -shm, even to read).
 */
function accessHint(name: string): string | null {
  const file = path.resolve(name);
  try {
    if (fs.statSync(file).isDirectory()) return ' (it is a folder; give the path of the database file in it)';
  } catch {
    return null;
  }
  return writeHint(name);
}

/**
 * Why this user could not write the database, if it could not: the file, and each log file
 * beside it, or where one is not there yet, the folder it would be made in.
 */
function writeHint(name: string): string | null {
  const file = path.resolve(name);
  const writable = (at: string) => {
    try {
      fs.accessSync(at, fs.constants.R_OK | fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (!writable(file)) return ' (the file cannot be read and written by this user; SQLite needs both, even to read)';
  for (const log of [`${file}-wal`, `${file}-shm`])
    if (fs.existsSync(log) ? !writable(log) : !writable(path.dirname(file)))
      return fs.existsSync(log)
        ? ` (${path.basename(log)} beside it cannot be read and written by this user; SQLite needs both, even to read)`
        : ' (its folder cannot be written by this user, and SQLite makes its log files there)';
  return null;
}

/** A SQLite connection in WAL mode, or an error that names the file and what is wrong with it. */
function openSqlite(name: string, existing: boolean): SQLite.Database {
  let sqlite: SQLite.Database | undefined;
  try {
    // A new file is readable by this user alone, as the key file beside it is: it holds the
    // screen's cookie secret and session hashes. SQLite gives its log files the same mode.
    if (name !== ':memory:' && !fs.existsSync(name)) fs.closeSync(fs.openSync(name, 'a', 0o600));
    // Every command may write (a key's use, a session), and SQLite writes beside the file. Asked
    // before the file is read: a read makes the log files, with the file's mode, and a file
    // refused as read-only left two beside it that refused it again once it was writable.
    if (name !== ':memory:') {
      const hint = writeHint(name);
      if (hint) throw new StoreUnusable(`Cannot use ${path.resolve(name)} as the database${hint}.`);
    }
    sqlite = new SQLite(name);
    // Before anything is written to it, the log's mode included.
    if (name !== ':memory:') refuseForeign(sqlite, path.resolve(name), existing);
    sqlite.pragma('journal_mode = WAL');
    return sqlite;
  } catch (err) {
    if (err instanceof StoreUnusable) throw err;
    sqlite?.close();
    const why = (err as Error).message;
    const hint = /not a database/i.test(why) ? ' (is it a Desk database?)' : (accessHint(name) ?? '');
    throw new StoreUnusable(`Cannot open ${path.resolve(name)} as a SQLite database: ${why}${hint}.`);
  }
}

/**
 * A SQLite file is Desk's when it holds Desk's migration record. One that holds other tables is
 * another program's, never written to; an empty one is Desk's to make only where a command may
 * make a database (serve, import, demo), as it is for PostgreSQL.
 */
function refuseForeign(sqlite: SQLite.Database, file: string, existing: boolean): void {
  const tables = sqlite.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];
  if (tables.includes('desk_migrations')) return;
  if (tables.length === 0 && !existing) return;
  sqlite.close();
  if (tables.length === 0) throw new NoDeskDatabase(noDeskDatabase(file));
  throw new StoreUnusable(
    `${file} is a SQLite database, but not Desk's (it holds other tables), so nothing was written to it; give the path of a Desk database, or a new one.`,
  );
}

async function hasDeskTables(db: Kysely<Database>): Promise<boolean> {
  const r = await sql<{ t: string | null }>`select to_regclass('desk_migrations')::text as t`.execute(db);
  return r.rows[0]?.t != null;
}
