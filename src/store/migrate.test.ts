import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, reopenStore } from '../../test/helpers/db.ts';
import { refuse } from '../../test/helpers/refuse.ts';
import type { DialectName } from './dialect.ts';
import { migrations } from './migrate.ts';

// Two versions of Desk were released with change 009 before change 008 came in, so their
// databases have every change up to 009 but 008. Opening one brings in 008 and the rest.

/** The changes those versions had: every one up to 009 but 008. */
const RELEASED = Object.fromEntries(
  Object.entries(migrations).filter(([name]) => name < '010' && name !== '008_mail_reading'),
);

type Blank = { target: string; db: Kysely<any>; drop: () => Promise<void> };

async function blankSqlite(): Promise<Blank> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-migrate-'));
  const target = path.join(dir, 'desk.db');
  return {
    target,
    db: new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(target) }) }),
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function blankPostgres(): Promise<Blank> {
  const name = `desk_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: PG_URL! });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return {
    target: url.toString(),
    db: new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString() }) }) }),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Brings a blank database to what an earlier version, with just these changes, made of it. */
async function migrateWith(b: Blank, changes: typeof migrations, dialect: DialectName): Promise<void> {
  const migrator = new Migrator({
    db: b.db,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(Object.entries(changes).map(([n, m]) => [n, m(dialect)])) as Record<string, Migration>,
    },
    migrationTableName: 'desk_migrations',
    migrationLockTableName: 'desk_migrations_lock',
  });
  expect((await migrator.migrateToLatest()).error).toBeUndefined();
}

const CASES: Array<{ name: DialectName; blank: () => Promise<Blank> }> = [
  { name: 'sqlite', blank: blankSqlite },
  ...(PG_URL ? [{ name: 'postgres' as const, blank: blankPostgres }] : []),
];

describe.each(CASES)('a database with a later change than one it lacks ($name)', ({ name, blank }) => {
  const made: Blank[] = [];
  afterAll(async () => {
    for (const b of made) await b.drop();
  });

  it('is brought up to this version, the missing change first', async () => {
    const b = await blank();
    made.push(b);
    await migrateWith(b, RELEASED, name);
    await b.db.destroy();

    const store = await reopenStore(b.target);
    try {
      expect(store.upgraded[0]).toBe('008_mail_reading');
      expect(store.upgraded).not.toContain('009_open_counts');
      expect(store.upgraded.at(-1)).toBe(Object.keys(migrations).at(-1));
      const rows = await store.db.selectFrom('work').select(['replied_at', 'replied_by']).execute();
      expect(rows).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

/** The changes up to 008: a database of a version before the stored counts came in. */
const BEFORE_COUNTS = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '009'));

describe.each(CASES)('an upgrade that fails partway ($name)', ({ name, blank }) => {
  const made: Blank[] = [];
  afterAll(async () => {
    for (const b of made) await b.drop();
  });

  it('leaves the database as it was, and the next start makes the whole upgrade', async () => {
    const b = await blank();
    made.push(b);
    await migrateWith(b, BEFORE_COUNTS, name);
    // Change 009 makes its tables, and then the record of it is refused, as a stop would leave it.
    const undo = await refuse(b.db, name, {
      name: 'upgrade_stops',
      table: 'desk_migrations',
      on: 'INSERT',
      when: "NEW.name = '009_open_counts'",
    });
    await expect(reopenStore(b.target)).rejects.toThrow(/009_open_counts failed: upgrade_stops refused/);
    const tables = await b.db.introspection.getTables();
    expect(tables.map((t) => t.name)).not.toContain('open_class_counts');
    const applied = await b.db.selectFrom('desk_migrations').select('name').orderBy('name').execute();
    expect(applied.map((r) => r.name)).toEqual(Object.keys(BEFORE_COUNTS).sort());

    await undo();
    await b.db.destroy();
    const store = await reopenStore(b.target);
    try {
      expect(store.upgraded).toContain('009_open_counts');
      expect(store.upgraded.at(-1)).toBe(Object.keys(migrations).at(-1));
      expect(await store.db.selectFrom('open_class_counts').selectAll().execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe.each(CASES)('a new database another process has begun to make ($name)', ({ name, blank }) => {
  const made: Blank[] = [];
  afterAll(async () => {
    for (const b of made) await b.drop();
  });

  it('is opened as the new database it is, not as an earlier version to upgrade', async () => {
    const b = await blank();
    made.push(b);
    // The migrator makes its record before the upgrade's transaction; a process starting beside
    // one making the database finds that record empty.
    await migrateWith(b, {}, name);
    expect(await b.db.selectFrom('desk_migrations').select('name').execute()).toEqual([]);
    await b.db.destroy();

    const store = await reopenStore(b.target);
    try {
      expect(store.upgraded).toEqual([]);
      const applied = await store.db
        .selectFrom('desk_migrations' as never)
        .select('name' as never)
        .execute();
      expect(applied).toHaveLength(Object.keys(migrations).length);
    } finally {
      await store.close();
    }
  });
});
