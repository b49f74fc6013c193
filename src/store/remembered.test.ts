import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../../test/helpers/db.ts';
import { makeDesk } from '../../test/helpers/factories.ts';
import { openStore } from './db.ts';
import { remembered } from './remembered.ts';
import { findKeyByHash, grantsOf, markKeyRevoked } from './repositories/desks.ts';
import { addEvent } from './repositories/events.ts';
import { hashKey } from '../domain/keys/secret.ts';
import { harness } from '../../test/helpers/app.ts';

const open: TestStore[] = [];
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
afterEach(async () => {
  for (const s of open.splice(0).reverse()) await s.close();
});

describe('reads remembered while the store is unchanged', () => {
  it('answers from memory until anything is written, here or by another connection', async () => {
    const store = await sqliteStore();
    open.push(store);
    const d = await makeDesk(store.db);
    let reads = 0;
    const read = () => remembered(store.db, 'n', async () => ++reads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    await store.db.updateTable('desks').set({ name: 'Renamed' }).where('id', '=', d.desk.id).execute();
    expect(await read()).toBe(2);

    const other = await openStore(store.target);
    await other.db.updateTable('desks').set({ name: 'Again' }).where('id', '=', d.desk.id).execute();
    // Another process's commit is seen from the next turn of the event loop: a request that
    // arrives after it is handled in a later turn.
    await nextTurn();
    expect(await read()).toBe(3);
    expect(await read()).toBe(3);
    await other.close();
  });

  it("sees another connection's commit once the store is asked afresh, as each request asks as it arrives", async () => {
    const store = await sqliteStore();
    open.push(store);
    const d = await makeDesk(store.db);
    const other = await openStore(store.target);
    let reads = 0;
    const read = () => remembered(store.db, 'n', async () => ++reads);
    expect(await read()).toBe(1);
    // No turn of the event loop passes until fresh(): SQLite's driver answers in microtasks.
    await other.db.updateTable('desks').set({ name: 'Elsewhere' }).where('id', '=', d.desk.id).execute();
    expect(await read()).toBe(1);
    await store.fresh();
    expect(await read()).toBe(2);
    await other.close();
  });

  it("keeps a read that names its tables through this process's writes to others, and no further", async () => {
    const store = await sqliteStore();
    open.push(store);
    const d = await makeDesk(store.db);
    let reads = 0;
    const read = () => remembered(store.db, 'named', async () => ++reads, { tables: ['api_keys', 'desks'] });
    expect(await read()).toBe(1);
    await addEvent(store.db, { deskId: d.desk.id, kind: 'note', message: 'elsewhere', at: '2026-01-01T00:00:00.000Z' });
    expect(await read()).toBe(1);
    await store.db.updateTable('desks').set({ name: 'Renamed' }).where('id', '=', d.desk.id).execute();
    expect(await read()).toBe(2);
    // A delete from a table nothing points at reaches that table alone; one from a table other
    // tables point at may reach any of them.
    await store.db.deleteFrom('events').where('desk_id', '=', d.desk.id).execute();
    expect(await read()).toBe(2);
    await store.db.deleteFrom('work').where('desk_id', '=', d.desk.id).execute();
    expect(await read()).toBe(3);
  });

  it('refuses a key revoked in this process on the next lookup, though other writes left it in memory', async () => {
    const store = await sqliteStore();
    open.push(store);
    const d = await makeDesk(store.db);
    const hash = hashKey(d.key);
    const found = await findKeyByHash(store.db, hash);
    await addEvent(store.db, { deskId: d.desk.id, kind: 'note', message: 'elsewhere', at: '2026-01-01T00:00:00.000Z' });
    expect(await findKeyByHash(store.db, hash)).toBe(found);
    await markKeyRevoked(store.db, found!.key.id, '2026-01-02T00:00:00.000Z');
    expect((await findKeyByHash(store.db, hash))?.key.revoked_at).toBe('2026-01-02T00:00:00.000Z');
  });

  it('refuses a key revoked by another process on the very next lookup', async () => {
    const store = await sqliteStore();
    open.push(store);
    const d = await makeDesk(store.db, { grants: ['file'] });
    const hash = hashKey(d.key);
    expect((await findKeyByHash(store.db, hash))?.key.revoked_at).toBeNull();
    expect([...(await grantsOf(store.db, d.desk.id))]).toEqual(['file']);

    const other = await openStore(store.target);
    await markKeyRevoked(other.db, (await findKeyByHash(other.db, hash))!.key.id, '2026-01-01T00:00:00.000Z');
    await other.close();
    await nextTurn();
    expect((await findKeyByHash(store.db, hash))?.key.revoked_at).toBe('2026-01-01T00:00:00.000Z');
  });

  it('reads afresh inside a transaction, and shares what it keeps only frozen', async () => {
    const store = await sqliteStore();
    open.push(store);
    const d = await makeDesk(store.db);
    const found = await findKeyByHash(store.db, hashKey(d.key));
    expect(Object.isFrozen(found?.desk)).toBe(true);
    let reads = 0;
    await store.db.transaction().execute(async (tx) => {
      await remembered(tx, 'n', async () => ++reads);
      await remembered(tx, 'n', async () => ++reads);
    });
    expect(reads).toBe(2);
  });

  it('gives up only its oldest answer when a shelf is full', async () => {
    const store = await sqliteStore();
    open.push(store);
    const reads = new Map<string, number>();
    const read = (name: string, large = false) =>
      remembered(
        store.db,
        name,
        async () => {
          reads.set(name, (reads.get(name) ?? 0) + 1);
          return name;
        },
        { large },
      );
    for (const [large, kept] of [
      [false, 2_000],
      [true, 100],
    ] as const) {
      const names = Array.from({ length: kept + 1 }, (_, i) => `${large ? 'large' : 'small'} ${i}`);
      for (const name of names) await read(name, large);
      // The first went to make room for the last; the second and the last are still there.
      for (const name of [names[1]!, names[kept]!, names[0]!]) await read(name, large);
      expect([names[0], names[1], names[kept]].map((n) => reads.get(n!))).toEqual([2, 1, 1]);
    }
  });

  it('refuses a key revoked by another connection on the very next request, with no turn of the loop between', async () => {
    const store = await sqliteStore();
    open.push(store);
    const h = await harness(store);
    const d = await makeDesk(store.db);
    const me = () => h.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${d.key}` } });
    expect((await me()).statusCode).toBe(200);
    const other = await openStore(store.target);
    const found = await findKeyByHash(other.db, hashKey(d.key));
    await markKeyRevoked(other.db, found!.key.id, '2026-01-01T00:00:00.000Z');
    expect((await me()).statusCode).toBe(401);
    await other.close();
    await h.close();
  });
});
