import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWork } from '../../src/store/repositories/work.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeArrangement, makeDesk, makeWork } from '../helpers/factories.ts';

// Another process holding SQLite's write lock for longer than the busy timeout (a large import
// runs in one transaction) is a wait the client can retry, not a fault: 503 with Retry-After,
// nothing written, and the same Idempotency-Key goes through once the lock is let go.

describe('a write the SQLite store cannot take just now', () => {
  let store: TestStore;
  let h: Harness;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('while another process holds the write lock is 503 unavailable with Retry-After, writes nothing, and the retry is answered', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { due_date: '2030-01-01' });
    const other = new Database(store.target);
    other.pragma('busy_timeout = 0');
    other.exec('begin immediate');
    const call = () =>
      h.call('POST', `/api/v1/work/${row.id}/snooze`, {
        key: d.key,
        body: { days: 2 },
        headers: { 'idempotency-key': 'held-lock' },
      });
    try {
      const busy = await call();
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json()).toEqual({
        error: {
          code: 'unavailable',
          message: "The database is busy with another process's write; try again in a moment.",
        },
      });
    } finally {
      other.exec('rollback');
      other.close();
    }
    expect((await findWork(store.db, d.desk.id, row.id))!.due_date).toBe('2030-01-01');
    const retried = await call();
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json().data.due_date).toBe('2030-01-03');
  }, 30_000);

  // A disk that fills is the operator's to mend, and no fault of the request: 503 saying so,
  // nothing half-written, and the same request goes through once there is room. SQLite's own
  // limit on the file's pages stands in for the disk: it fails a write with the same SQLITE_FULL.
  it('when the database has no room left is 503 unavailable saying the disk is full, writes nothing, and the retry is answered once there is room', async () => {
    const d = await makeDesk(store.db);
    const arr = await makeArrangement(store.db, d.desk.id);
    const notes = async () =>
      (await store.db.selectFrom('activity').select('id').where('arrangement_id', '=', arr.id).execute()).length;
    const call = () =>
      h.call('POST', `/api/v1/arrangements/${arr.id}/notes`, {
        key: d.key,
        body: { body: 'x'.repeat(3_900) },
        headers: { 'idempotency-key': 'disk-full' },
      });
    // No free pages left in the file (a migration that makes a table again leaves some), so the
    // limit below leaves no room at all.
    await sql`vacuum`.execute(store.db);
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(store.db)).rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${pages}`).execute(store.db);
    try {
      const full = await call();
      expect(full.statusCode).toBe(503);
      expect(full.headers['retry-after']).toBe('1');
      expect(full.json()).toEqual({
        error: {
          code: 'unavailable',
          message: "The desk's disk is full, so nothing was written; try again once there is room on it.",
        },
      });
    } finally {
      await sql.raw('pragma max_page_count = 1073741823').execute(store.db);
    }
    expect(await notes()).toBe(0);
    const retried = await call();
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await notes()).toBe(1);
  }, 30_000);
});
