import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../test/helpers/db.ts';
import { makeDesk, makeWork } from '../../test/helpers/factories.ts';
import { prepared } from './prepared.ts';
import type { Database, WorkUpdate } from './schema.ts';

describe.each(DIALECTS)('queries prepared once and run with new values ($name)', ({ open }) => {
  let store: TestStore;
  let deskId: string;
  const sqlSeen: string[] = [];

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
  });
  afterAll(async () => {
    await store.close();
  });

  /** Counts what the build function is asked, to tell a built query from a reused one. */
  let builds = 0;
  const titled = prepared((db, v: { deskId: string; title: string }) => {
    builds++;
    return db
      .selectFrom('work')
      .select(['id', 'title', 'status'])
      .where('desk_id', '=', v.deskId)
      .where('title', '=', v.title)
      .where('status', '=', 'open');
  });

  it('answers each call with its own values, as the same query built afresh does, and builds it once', async () => {
    const a = await makeWork(store.db, deskId, { title: 'Alpha' });
    const b = await makeWork(store.db, deskId, { title: 'Beta' });
    await makeWork(store.db, deskId, { title: 'Gamma', status: 'done' });
    const before = builds;
    expect(await titled.rows(store.db, { deskId, title: 'Alpha' })).toEqual([
      { id: a.id, title: 'Alpha', status: 'open' },
    ]);
    expect(await titled.first(store.db, { deskId, title: 'Beta' })).toEqual({
      id: b.id,
      title: 'Beta',
      status: 'open',
    });
    // A value the build fixed ('open') stays fixed: the done row is not found.
    expect(await titled.first(store.db, { deskId, title: 'Gamma' })).toBeUndefined();
    const fresh = await store.db
      .selectFrom('work')
      .select(['id', 'title', 'status'])
      .where('desk_id', '=', deskId)
      .where('title', '=', 'Beta')
      .where('status', '=', 'open')
      .execute();
    expect(await titled.rows(store.db, { deskId, title: 'Beta' })).toEqual(fresh);
    expect(builds - before).toBe(1);
  });

  it('serves a transaction on the same database without building again', async () => {
    const before = builds;
    await titled.first(store.db, { deskId, title: 'Alpha' });
    const inside = await store.db
      .transaction()
      .execute((trx) => titled.first(trx as Kysely<Database>, { deskId, title: 'Alpha' }));
    expect(inside?.title).toBe('Alpha');
    expect(builds - before).toBe(0);
  });

  const change = prepared((db, v: { id: number; set: WorkUpdate }) => {
    sqlSeen.push(db.updateTable('work').set(v.set).where('id', '=', v.id).compile().sql);
    return db.updateTable('work').set(v.set).where('id', '=', v.id);
  });

  it('builds once for each shape of its values, leaving out what is absent as Kysely does', async () => {
    const row = await makeWork(store.db, deskId, { title: 'Shapes', priority: 40 });
    sqlSeen.length = 0;
    expect(await change.run(store.db, { id: row.id, set: { priority: 30, detail: undefined } })).toBe(1);
    expect(await change.run(store.db, { id: row.id, set: { priority: 20, detail: undefined } })).toBe(1);
    expect(await change.run(store.db, { id: row.id, set: { priority: 10, detail: 'Now with detail' } })).toBe(1);
    expect(sqlSeen).toHaveLength(2);
    expect(sqlSeen[0]).not.toMatch(/detail/);
    expect(sqlSeen[1]).toMatch(/detail/);
    const now = await store.db
      .selectFrom('work')
      .select(['priority', 'detail'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(now).toEqual({ priority: 10, detail: 'Now with detail' });
    expect(await change.run(store.db, { id: -1, set: { priority: 10 } })).toBe(0);
  });

  it('stops a build that reads a value itself, naming the value', async () => {
    const formats = prepared((db, v: { deskId: string; title: string }) =>
      db.selectFrom('work').select('id').where('desk_id', '=', v.deskId).where('title', '=', `${v.title}!`),
    );
    await expect(formats.rows(store.db, { deskId, title: 'Alpha' })).rejects.toThrow(/value at title/);
    const compares = prepared((db, v: { deskId: string; n: number }) =>
      db
        .selectFrom('work')
        .select('id')
        .where('desk_id', '=', v.deskId)
        .where('priority', '>', v.n + 1),
    );
    await expect(compares.rows(store.db, { deskId, n: 1 })).rejects.toThrow(/value at n/);
  });

  it('refuses lists', async () => {
    const listed = prepared((db, v: { ids: number[] }) => db.selectFrom('work').select('id').where('id', 'in', v.ids));
    await expect(listed.rows(store.db, { ids: [1, 2] })).rejects.toThrow(/no lists; ids/);
  });
});
