import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
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
});
