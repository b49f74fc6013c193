import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from './schema.ts';
import type { DialectName } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import { isPostgresUrl, redact } from './location.ts';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, with any password removed: safe to print. */
  location: string;
  close(): Promise<void>;
}

export { isPostgresUrl, redact };

// node-postgres returns int8 (count(*), sum()) as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

const STATEMENT_CACHE = 500;

/**
 * Kysely asks better-sqlite3 to prepare every statement afresh, and preparing costs more than
 * running most of our queries. This keeps the most recently used statements, by text, for
 * reuse. A statement still busy with an iterator is never handed out twice.
 */
function reusingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const hit = cache.get(text);
      if (hit && !hit.busy) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const stmt = sqlite.prepare(text);
      cache.set(text, stmt);
      if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      return stmt;
    },
  };
}

/** Opens the store named by a postgres:// URL or a SQLite file path, and applies migrations. */
export async function openStore(target: string, opts: { migrate?: boolean } = {}): Promise<Store> {
  let store: Store;
  if (isPostgresUrl(target)) {
    const pool = new pg.Pool({ connectionString: target, max: 10 });
    // An idle connection the server drops (a restart, an administrator) is replaced on next use;
    // without a listener the pool's error would end the process.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    store = { db, dialect: 'postgres', location: redact(target), close: () => db.destroy() };
  } else {
    const file = target.startsWith('file:') ? target.slice(5) : target;
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
    store = { db, dialect: 'sqlite', location: path.resolve(file), close: () => db.destroy() };
  }
  if (opts.migrate !== false) await migrateToLatest(store.db, store.dialect);
  return store;
}
