import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../../test/helpers/app.ts';
import { PG_URL, postgresStore, reopenStore, type TestStore } from '../../test/helpers/db.ts';
import { makeArrangement, makeDesk, makeWork } from '../../test/helpers/factories.ts';
import { deskContext } from '../domain/context.ts';
import { deleteDesk } from '../domain/desks/manage.ts';
import { removeEntry } from '../domain/desks/remove.ts';
import type { Store } from './db.ts';
import { atomicallyOn } from './tx.ts';

// Two PostgreSQL transactions that come to wait on each other's rows: the server ends one, and
// it is begun again rather than reported. The server is told to look for such waits after 50 ms
// rather than its usual second, so that the races below meet them often and soon.

describe.skipIf(!PG_URL)('transactions that wait on each other (PostgreSQL)', () => {
  let store: TestStore;
  let one: Store;
  let two: Store;
  let h: Harness;
  beforeAll(async () => {
    store = await postgresStore();
    const name = new URL(store.target).pathname.slice(1);
    const admin = new pg.Client({ connectionString: PG_URL! });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${name} SET deadlock_timeout = '50ms'`);
    await admin.end();
    one = await reopenStore(store.target);
    two = await reopenStore(store.target);
    h = await harness({ ...one, target: store.target, close: async () => undefined });
  });
  afterAll(async () => {
    await h?.close();
    await one?.close();
    await two?.close();
    await store?.close();
  });

  it('each commits once, the one the server ended begun again', async () => {
    const a = (await makeDesk(store.db)).desk.id;
    const b = (await makeDesk(store.db)).desk.id;
    let firsts = 0;
    let bothHold!: () => void;
    const held = new Promise<void>((resolve) => (bothHold = resolve));
    const touch = (db: typeof one.db, id: string) =>
      sql`update desks set name = name || '.' where id = ${id}`.execute(db);
    let begun = 0;
    const crosswise = (db: typeof one.db, first: string, second: string) =>
      atomicallyOn(db, async (trx) => {
        begun++;
        await touch(trx, first);
        if (++firsts === 2) bothHold();
        await held;
        await touch(trx, second);
      });
    await Promise.all([crosswise(one.db, a, b), crosswise(two.db, b, a)]);
    expect(begun).toBe(3);
    const names = await store.db.selectFrom('desks').select('name').where('id', 'in', [a, b]).execute();
    for (const n of names) expect(n.name).toMatch(/\.\.$/);
  });

  it("a snooze and the removal of the row's arrangement both go through", async () => {
    const d = await makeDesk(store.db);
    const owner = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' }, two.db);
    const answers = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const a = await makeArrangement(store.db, d.desk.id, `Lease ${i}`);
      const row = await makeWork(store.db, d.desk.id, { arrangement_id: a.id });
      const [snooze] = await Promise.all([
        h.call('POST', `/api/v1/work/${row.id}/snooze`, { key: d.key, body: { days: 3 } }),
        new Promise((r) => setTimeout(r, i % 4)).then(() => removeEntry(owner, 'arrangement', a.id)),
      ]);
      answers.add(snooze.statusCode);
    }
    expect([...answers]).toEqual([200]);
    const left = await store.db.selectFrom('arrangements').select('id').where('desk_id', '=', d.desk.id).execute();
    expect(left).toEqual([]);
  });

  it('a snooze on a desk being deleted is answered 200 or no_desk, and the desk goes', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const d = await makeDesk(store.db);
      const row = await makeWork(store.db, d.desk.id);
      const [snooze] = await Promise.all([
        h.call('POST', `/api/v1/work/${row.id}/snooze`, { key: d.key, body: { days: 3 } }),
        new Promise((r) => setTimeout(r, i % 4)).then(() => deleteDesk(two.db, d.desk.id)),
      ]);
      codes.add(snooze.statusCode === 200 ? '200' : `${snooze.statusCode} ${snooze.json().error?.code}`);
      expect(await store.db.selectFrom('desks').select('id').where('id', '=', d.desk.id).execute()).toEqual([]);
    }
    expect([...codes].filter((c) => c !== '200' && c !== '403 no_desk' && c !== '404 not_found')).toEqual([]);
  });

  it('a note on an arrangement of a desk being deleted is answered 200 or no_desk, never a fault', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const d = await makeDesk(store.db);
      const a = await makeArrangement(store.db, d.desk.id, `Lease ${i}`);
      const [note] = await Promise.all([
        h.call('POST', `/api/v1/arrangements/${a.id}/notes`, {
          key: d.key,
          body: { body: 'Keys are with the landlord.' },
        }),
        new Promise((r) => setTimeout(r, i % 4)).then(() => deleteDesk(two.db, d.desk.id)),
      ]);
      codes.add(note.statusCode < 300 ? '2xx' : `${note.statusCode} ${note.json().error?.code}`);
    }
    expect([...codes].filter((c) => !['2xx', '403 no_desk', '404 not_found'].includes(c))).toEqual([]);
  });

  it('a note on an arrangement the owner removes as it is written is answered 404, naming the arrangement', async () => {
    const d = await makeDesk(store.db);
    const a = await makeArrangement(store.db, d.desk.id, 'Corner lease');
    const remover = new pg.Client({ connectionString: store.target });
    await remover.connect();
    await remover.query('begin');
    await remover.query('delete from arrangements where id = $1', [a.id]);
    const note = h.call('POST', `/api/v1/arrangements/${a.id}/notes`, { key: d.key, body: { body: 'Keys are back.' } });
    // The note's insert waits on the removal's hold on the arrangement; then the removal commits.
    const waiting = () =>
      remover.query(
        "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
      );
    for (let i = 0; i < 400 && (await waiting()).rows.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    await remover.query('commit');
    await remover.end();
    const answer = await note;
    expect(answer.statusCode).toBe(404);
    expect(answer.json().error).toEqual({ code: 'not_found', message: `No arrangement ${a.id} on this desk.` });
  });
});
