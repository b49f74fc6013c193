import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, postgresStore, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { startServerProcess } from '../helpers/process.ts';
import { findWork } from '../../src/store/repositories/work.ts';

// D25 across real processes: two `desk serve` processes on one PostgreSQL database share
// idempotency records, and a replay still holds after the process that answered is gone.

if (!PG_URL) console.info('Server-process tests skipped: DESK_TEST_DATABASE_URL is not set.');

describe.runIf(PG_URL)('idempotency across server processes (postgres)', () => {
  let store: TestStore;
  let h: Harness;

  beforeAll(async () => {
    store = await postgresStore();
    h = await harness(store);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  const snooze = (url: string, key: string, id: number, idem: string, days: number) =>
    fetch(`${url}/api/v1/work/${id}/snooze`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem },
      body: JSON.stringify({ days }),
    });

  it('a write answered by one process is replayed by another, and by a restarted one; the date moves once', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01', priority: 50 });
    const a = await startServerProcess(store.target);
    const b = await startServerProcess(store.target);
    try {
      const [first, second] = await Promise.all([
        snooze(a.url, d.key, row.id, 'across-processes', 2),
        snooze(b.url, d.key, row.id, 'across-processes', 9),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const replayed = [first, second].filter((r) => r.headers.get('idempotent-replayed') === 'true');
      expect(replayed).toHaveLength(1);
      const [x, y] = [await first.json(), await second.json()];
      expect(y).toEqual(x);
      expect((await findWork(store.db, d.desk.id, row.id))!.due_date).toBe(x.data.due_date);
    } finally {
      await a.stop();
      await b.stop();
    }
    const moved = (await findWork(store.db, d.desk.id, row.id))!.due_date;

    const c = await startServerProcess(store.target);
    try {
      const again = await snooze(c.url, d.key, row.id, 'across-processes', 30);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await again.json()).data.due_date).toBe(moved);
      expect((await findWork(store.db, d.desk.id, row.id))!.due_date).toBe(moved);
    } finally {
      await c.stop();
    }
  });
});
