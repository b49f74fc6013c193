import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PG_URL } from '../../test/helpers/db.ts';
import { storeTrouble } from './trouble.ts';

// A statement refused for a reason of the store's own is said in words, not as a fault.

describe("the store's own trouble", () => {
  it('a database that cannot be written is said as that, for the person who can let Desk write it', () => {
    const db = new SQLite(':memory:');
    db.exec('create table t (x)');
    db.pragma('query_only = ON');
    let refused: unknown;
    try {
      db.prepare('insert into t values (1)').run();
    } catch (err) {
      refused = err;
    }
    db.close();
    expect((refused as { code?: string }).code).toMatch(/^SQLITE_READONLY/);
    expect(storeTrouble(refused)).toMatchObject({
      kind: 'readonly',
      message: expect.stringMatching(/^The database cannot be written: its file or folder is read-only/),
    });
  });

  it('a fault of what was asked is none of its own', () => {
    expect(
      storeTrouble(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })),
    ).toBeNull();
  });

  it.skipIf(!PG_URL)('a PostgreSQL server at its connection limit is out of reach for now, not a fault', async () => {
    const server = PG_URL as string;
    // A role allowed no connection at all meets the limit on its first: the server's own 53300.
    const role = `desk_trouble_${process.pid}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create role ${role} login connection limit 0`);
    try {
      const url = new URL(server);
      url.username = role;
      const refused = await new pg.Client({ connectionString: url.toString() }).connect().then(
        () => null,
        (err: unknown) => err,
      );
      expect((refused as { code?: string }).code).toBe('53300');
      expect(storeTrouble(refused)).toMatchObject({ kind: 'unreachable' });
    } finally {
      await admin.query(`drop role ${role}`);
      await admin.end();
    }
  });

  it('a process with no file descriptor left for a connection is out of reach for now, not a fault', () => {
    for (const code of ['EMFILE', 'ENFILE']) {
      const err = Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });
      expect(storeTrouble(err), code).toMatchObject({ kind: 'unreachable' });
    }
  });
});
