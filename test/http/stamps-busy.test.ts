import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/domain/owner/sign-in.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { signInWithLink } from '../helpers/sign-in.ts';

// A read writes two stamps along the way: a key's "last used" and a signed-in session's last
// page. While another process holds SQLite's write lock (a large `desk import`, say), neither
// can be written; the read is still answered, and the stamp waits for a later request. Nor does
// the first read of the queue on a new database write the secret its cursors are signed with,
// and a session past its idle days is signed out whether or not its row can be deleted then.

describe('a read while another process holds the write lock', () => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  /** Runs `read` while a second connection to the file holds its write lock. */
  async function whileLocked<T>(read: () => Promise<T>): Promise<T> {
    const other = new SQLite(store.target);
    other.exec('begin immediate');
    try {
      return await read();
    } finally {
      other.exec('rollback');
      other.close();
    }
  }

  it("of the queue, the first on a new database, is answered: the cursors' secret was made with it", async () => {
    const d = await makeDesk(store.db);
    const work = await whileLocked(() => h.call('GET', '/api/v1/work', { key: d.key }));
    expect(work.statusCode).toBe(200);
    expect(work.json().data.items).toEqual([]);
  }, 30_000);

  it("is answered with the key's last use left for a later request, and the owner's page too", async () => {
    const d = await makeDesk(store.db);
    const me = await whileLocked(() => h.call('GET', '/api/v1/me', { key: d.key }));
    expect(me.statusCode).toBe(200);
    const [key] = await store.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('desk_id', '=', d.desk.id)
      .execute();
    expect(key!.last_used_at).toBeNull();
    // Once the lock is gone, the next request stamps it.
    expect((await h.call('GET', '/api/v1/me', { key: d.key })).statusCode).toBe(200);
    const [after] = await store.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('desk_id', '=', d.desk.id)
      .execute();
    expect(after!.last_used_at).toBe(h.clock.now().toISOString());

    const { token } = await createSignInLink(store.db, d.desk.id, h.clock.now());
    const cookies = await signInWithLink(h.app, token, {});
    // The session was last seen long enough ago that this page would stamp it.
    const aWhileAgo = new Date(h.clock.now().getTime() - 10 * 60_000).toISOString();
    await store.db.updateTable('owner_sessions').set({ last_seen_at: aWhileAgo }).execute();
    const page = await whileLocked(() => h.app.inject({ method: 'GET', url: '/', cookies }));
    expect(page.statusCode, page.body.slice(0, 3000)).toBe(200);
    expect(page.body).toContain('<h1');
    const [session] = await store.db.selectFrom('owner_sessions').select('last_seen_at').execute();
    expect(session!.last_seen_at).toBe(aWhileAgo);

    // Past its idle days the session is over: the answer is the one given with no session.
    await store.db.updateTable('owner_sessions').set({ last_seen_at: '2000-01-01T00:00:00.000Z' }).execute();
    const over = await whileLocked(() => h.app.inject({ method: 'GET', url: '/', cookies }));
    const none = await h.app.inject({ method: 'GET', url: '/' });
    expect([over.statusCode, over.body]).toEqual([none.statusCode, none.body]);
  }, 30_000);
});
