import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PG_URL } from '../../test/helpers/db.ts';
import { namingPool } from './postgres-statements.ts';
import { storeTrouble } from './trouble.ts';

// One connection, so what one statement prepares the next can see.
describe.skipIf(!PG_URL)('statements named by their text (PostgreSQL)', () => {
  const open = (limit?: number) => {
    const pool = new pg.Pool({ connectionString: PG_URL ?? undefined, max: 1 });
    return new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool: namingPool(pool, { limit }) }) });
  };
  const prepared = async (db: Kysely<Record<string, never>>) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements order by name`.execute(db)).rows.map(
      (r) => r.statement,
    );

  it('prepares a statement with parameters once per connection and reuses it', async () => {
    const db = open();
    try {
      for (const n of [1, 2, 3])
        expect((await sql<{ n: number }>`select ${n}::int as n`.execute(db)).rows).toEqual([{ n }]);
      expect(await prepared(db)).toEqual(['select $1::int as n']);
    } finally {
      await db.destroy();
    }
  });

  it('sends a statement without parameters as before, several in one text included', async () => {
    const db = open();
    try {
      await sql`create temporary table t (a int); insert into t values (1); insert into t values (2)`.execute(db);
      expect((await sql<{ n: number }>`select count(*)::int as n from t`.execute(db)).rows).toEqual([{ n: 2 }]);
      expect(await prepared(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('past its limit of names, a new text goes unnamed and still answers', async () => {
    const db = open(1);
    try {
      expect((await sql<{ n: number }>`select ${1}::int as n`.execute(db)).rows).toEqual([{ n: 1 }]);
      expect((await sql<{ n: number }>`select ${2}::int + 0 as n`.execute(db)).rows).toEqual([{ n: 2 }]);
      expect(await prepared(db)).toEqual(['select $1::int as n']);
    } finally {
      await db.destroy();
    }
  });

  it('says a connection that did not come free in time as a database that cannot be reached', async () => {
    const pool = new pg.Pool({ connectionString: PG_URL ?? undefined, max: 1, connectionTimeoutMillis: 200 });
    const db = new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool: namingPool(pool) }) });
    try {
      const held = sql`select pg_sleep(1)`.execute(db);
      const waited = await sql`select 1`.execute(db).catch((err: unknown) => err);
      expect((waited as Error).message).toBe('No connection to the database came free within 0.2 s');
      expect(storeTrouble(waited)?.kind).toBe('unreachable');
      await held;
    } finally {
      await db.destroy();
    }
  });
});
