import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWorkMany } from '../helpers/factories.ts';
import { startServerProcess } from '../helpers/process.ts';

// A server killed outright in the middle of a storm of writes loses no write it acknowledged:
// after a restart each acknowledged write is in the database, each replay gives the first
// answer, and the desk's counts agree with its rows.

const ROWS = 120;
const BASE = '2026-12-01';

describe.each(DIALECTS)('kill -9 during a storm of writes ($name)', ({ open }) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store.close();
  });

  it('every acknowledged write survives, every replay gives the first answer, and /me counts the rows', async () => {
    const d = await makeDesk(store.db);
    await makeWorkMany(
      store.db,
      d.desk.id,
      Array.from({ length: ROWS }, (_, i) => ({ title: `Row ${i}`, due_date: BASE, priority: 50 })),
    );
    const rows = await store.db
      .selectFrom('work')
      .select('id')
      .where('desk_id', '=', d.desk.id)
      .orderBy('id')
      .execute();
    // Each row is snoozed once, by its own number of days, so its date says whether the write landed.
    const daysOf = (i: number) => 1 + (i % 300);
    const write = (url: string, i: number) =>
      fetch(`${url}/api/v1/work/${rows[i]!.id}/snooze`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${d.key}`,
          'content-type': 'application/json',
          'idempotency-key': `storm-${i}`,
        },
        body: JSON.stringify({ days: daysOf(i) }),
      });

    const server = await startServerProcess(store.target);
    const acknowledged = new Map<number, string>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < ROWS && !killed) {
        const i = next++;
        try {
          const res = await write(server.url, i);
          const text = await res.text();
          if (res.status === 200) acknowledged.set(i, text);
        } catch {
          // The connection died with the server: not acknowledged, so nothing is promised.
        }
        if (!killed && acknowledged.size >= ROWS / 3) {
          killed = true;
          await server.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    if (!killed) await server.kill();
    expect(acknowledged.size).toBeGreaterThanOrEqual(ROWS / 3);

    const again = await startServerProcess(store.target);
    try {
      for (const [i, first] of acknowledged) {
        const row = await store.db
          .selectFrom('work')
          .select('due_date')
          .where('id', '=', rows[i]!.id)
          .executeTakeFirstOrThrow();
        expect(row.due_date, `row ${i}`).toBe(addDays(BASE, daysOf(i)));
        const replay = await write(again.url, i);
        expect(replay.status).toBe(200);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(await replay.text()).toBe(first);
      }
      // Writes that were never acknowledged either landed whole or not at all.
      for (let i = 0; i < ROWS; i++) {
        const row = await store.db
          .selectFrom('work')
          .select('due_date')
          .where('id', '=', rows[i]!.id)
          .executeTakeFirstOrThrow();
        expect([BASE, addDays(BASE, daysOf(i))], `row ${i}`).toContain(row.due_date);
      }
      const me = await (
        await fetch(`${again.url}/api/v1/me`, { headers: { authorization: `Bearer ${d.key}` } })
      ).json();
      const open = await store.db
        .selectFrom('work')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('desk_id', '=', d.desk.id)
        .where('status', 'in', ['open', 'in_progress', 'waiting'])
        .executeTakeFirstOrThrow();
      expect(me.data.work.open).toBe(Number(open.n));
    } finally {
      await again.stop();
    }
  }, 120_000);
});
