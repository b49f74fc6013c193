import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { askOncePerTurn } from './freshness.ts';

const STATEMENT_CACHE = 500;

type Row = Record<string, unknown>;

/**
 * A function that turns one row, as an array in column order, into an object with the
 * statement's column names. better-sqlite3 builds each row object key by key, which costs more
 * than reading the row on a wide table (~12 µs a row of `work`); one object literal of fixed
 * shape costs about half. A later column of the same name wins, as it does in better-sqlite3.
 */
function rowMaker(stmt: SQLite.Statement): ((values: unknown[]) => Row) | null {
  const names = stmt.columns().map((c) => c.name);
  if (names.includes('__proto__')) return null;
  const fields = names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: unknown[]) => Row;
}

/**
 * A statement as Kysely uses it: rows are read as arrays and shaped once, and every statement
 * that may write is counted before it runs.
 */
function shaped(stmt: SQLite.Statement, wrote: () => void): SqliteStatement {
  const make = stmt.reader ? rowMaker(stmt) : null;
  if (make) stmt.raw(true);
  const shape = make ? (rows: unknown[]) => (rows as unknown[][]).map(make) : (rows: unknown[]) => rows;
  const writes = !stmt.readonly;
  return {
    reader: stmt.reader,
    all(params) {
      if (writes) wrote();
      return shape(stmt.all(params));
    },
    run(params) {
      wrote();
      return stmt.run(params);
    },
    *iterate(params) {
      if (writes) wrote();
      for (const values of stmt.iterate(params) as IterableIterator<unknown[]>) yield make ? make(values) : values;
    },
  };
}

export interface SqliteHandle {
  /** What Kysely's SQLite dialect is given. */
  database: SqliteDatabase;
  /**
   * Changes whenever anything is committed to the file: by another connection (SQLite's
   * data_version, as of the start of this turn of the event loop) or by this one (every
   * statement that may write is counted, committed or not).
   */
  version(): string;
  /**
   * Resolves once other connections' commits have been read afresh, after this call: every
   * call made in one poll phase of the event loop shares one reading (freshness.ts).
   */
  fresh(): Promise<undefined>;
}

/**
 * Kysely asks better-sqlite3 to prepare every statement afresh, and preparing costs more than
 * running most of our queries. This keeps the most recently used statements, by text, for
 * reuse. A statement still busy with an iterator is never handed out twice.
 */
export function sqliteHandle(sqlite: SQLite.Database, onWrite?: () => void): SqliteHandle {
  const cache = new Map<string, { stmt: SQLite.Statement; use: SqliteStatement }>();
  let ownWrites = 0;
  const wrote = onWrite
    ? () => {
        ownWrites++;
        onWrite();
      }
    : () => {
        ownWrites++;
      };
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const database: SqliteDatabase = {
    close: () => sqlite.close(),
    prepare(text: string) {
      const hit = cache.get(text);
      if (hit && !hit.stmt.busy) {
        cache.delete(text);
        cache.set(text, hit);
        return hit.use;
      }
      const stmt = sqlite.prepare(text);
      const entry = { stmt, use: shaped(stmt, wrote) };
      cache.set(text, entry);
      if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      return entry.use;
    },
  };
  // data_version is read at most once a turn of the event loop, and afresh for the requests
  // that arrived in a poll phase (each awaits fresh() as it arrives), so a commit made before
  // a request arrived is always seen by it.
  let seen: number | null = null;
  const forget = () => {
    seen = null;
  };
  const read = () => {
    seen = dataVersion.get() as number;
    setImmediate(forget);
    return seen;
  };
  const otherWrites = () => seen ?? read();
  const fresh = askOncePerTurn((): undefined => {
    read();
    return undefined;
  });
  return { database, version: () => `${otherWrites()}.${ownWrites}`, fresh };
}
