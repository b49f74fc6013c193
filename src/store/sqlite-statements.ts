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
 * that may write is noted before it runs.
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

/**
 * The one table a statement writes, read from its text; null when that cannot be told for
 * sure. A delete from a table other tables' foreign keys point at (`referenced`) is never
 * named: deleting a desk deletes rows of other tables with it.
 */
export function tableWritten(text: string, referenced: () => ReadonlySet<string>): string | null {
  const m = /^\s*(?:(insert\s+into|update)|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?(?:[\s(]|$)/i.exec(text);
  if (!m) return null;
  const table = m[2]!.toLowerCase();
  return m[1] || !referenced().has(table) ? table : null;
}

export interface SqliteHandle {
  /** What Kysely's SQLite dialect is given. */
  database: SqliteDatabase;
  /**
   * Changes whenever anything is committed to the file: by another connection (SQLite's
   * data_version, as of the start of this turn of the event loop) or by this one (every
   * statement that may write is counted, committed or not). Given `tables`, it changes only
   * with this connection's writes that may touch one of them (and every other connection's).
   */
  version(tables?: readonly string[]): string;
  /**
   * Resolves once other connections' commits have been read afresh, after this call: every
   * call made in one poll phase of the event loop shares one reading (freshness.ts).
   */
  fresh(): Promise<undefined>;
}

/**
 * Kysely asks better-sqlite3 to prepare every statement afresh, and preparing costs more than
 * running most of our queries. This keeps the statements in use, by text, for reuse. A
 * statement still busy with an iterator is never handed out twice.
 */
export function sqliteHandle(sqlite: SQLite.Database, onWrite?: () => void): SqliteHandle {
  const cache = new Map<string, { stmt: SQLite.Statement; use: SqliteStatement; used: boolean }>();
  let ownWrites = 0;
  /** Writes whose table is not named by their text: they may have touched any table. */
  let unnamed = 0;
  const byTable = new Map<string, number>();
  // Read when a statement that deletes is first prepared, and again after the schema changed.
  let referencedAt: { schema: number; tables: ReadonlySet<string> } | null = null;
  const referenced = (): ReadonlySet<string> => {
    const schema = sqlite.pragma('schema_version', { simple: true }) as number;
    if (referencedAt?.schema !== schema) {
      const rows = sqlite
        .prepare(
          `select distinct lower(f."table") as t from sqlite_schema s, pragma_foreign_key_list(s.name) f where s.type = 'table'`,
        )
        .pluck()
        .all() as string[];
      referencedAt = { schema, tables: new Set(rows) };
    }
    return referencedAt.tables;
  };
  const noter = (stmt: SQLite.Statement): (() => void) => {
    const table = stmt.readonly ? undefined : tableWritten(stmt.source, referenced);
    return () => {
      ownWrites++;
      if (table) byTable.set(table, (byTable.get(table) ?? 0) + 1);
      else if (table === null) unnamed++;
      onWrite?.();
    };
  };
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const database: SqliteDatabase = {
    close: () => sqlite.close(),
    prepare(asked: string) {
      // Kysely begins every transaction with a plain (deferred) `begin`. One that has read and
      // then writes, after another process committed, is refused at once (SQLITE_BUSY) and no
      // busy timeout helps; begun immediate, it waits its turn for the write lock instead.
      const text = asked === 'begin' ? 'begin immediate' : asked;
      const hit = cache.get(text);
      if (hit && !hit.stmt.busy) {
        hit.used = true;
        return hit.use;
      }
      const stmt = sqlite.prepare(text);
      const entry = { stmt, use: shaped(stmt, noter(stmt)), used: false };
      cache.set(text, entry);
      // A full cache gives up its oldest statement not used since it was last looked at.
      while (cache.size > STATEMENT_CACHE) {
        const [oldest, e] = cache.entries().next().value!;
        cache.delete(oldest);
        if (e.used) {
          e.used = false;
          cache.set(oldest, e);
        }
      }
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
  const version = (tables?: readonly string[]) =>
    tables
      ? `${otherWrites()}.${unnamed}.${tables.map((t) => byTable.get(t) ?? 0).join('.')}`
      : `${otherWrites()}.${ownWrites}`;
  return { database, version, fresh };
}
