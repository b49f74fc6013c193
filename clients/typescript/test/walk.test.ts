import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskClient } from 'desk-client';
import { sqliteStore, type TestStore } from '../../../test/helpers/db.ts';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import { serve, type Served } from './server.ts';

// work.all() walks the cursors of a large desk to the end: every open row once, nothing finished.

const OPEN_ROWS = 5_000;

describe('desk-client walking a 5,000-row queue', () => {
  let store: TestStore;
  let served: Served;
  let d: Awaited<ReturnType<typeof makeDesk>>;

  beforeAll(async () => {
    store = await sqliteStore();
    served = await serve(store);
    d = await makeDesk(store.db);
    const rows: Array<Parameters<typeof makeWorkMany>[2][number]> = [];
    for (let i = 0, open = 0; open < OPEN_ROWS; i++) {
      const done = i % 9 === 8;
      // Many rows share a priority and a date, so the walk leans on the tie-break between pages.
      rows.push({
        title: `Row ${i}`,
        status: done ? 'done' : i % 3 === 0 ? 'waiting' : 'open',
        waiting_on: i % 3 === 0 ? 'Sam' : null,
        priority: 1 + (i % 7),
        due_date: i % 4 ? '2026-12-01' : null,
        closed_at: done ? TEST_NOW : null,
      });
      if (!done) open += 1;
    }
    await makeWorkMany(store.db, d.desk.id, rows);
  }, 120_000);
  afterAll(async () => {
    await served.close();
    await store.close();
  });

  it('yields every open row exactly once', async () => {
    const client = createDeskClient({ baseUrl: served.baseUrl, key: d.key });
    const ids: number[] = [];
    for await (const item of client.work.all()) ids.push(item.id);
    const open = await store.db
      .selectFrom('work')
      .select('id')
      .where('desk_id', '=', d.desk.id)
      .where('status', 'in', ['open', 'in_progress', 'waiting'])
      .execute();
    expect(ids).toHaveLength(OPEN_ROWS);
    expect(new Set(ids).size).toBe(OPEN_ROWS);
    expect([...ids].sort((a, b) => a - b)).toEqual(open.map((r) => r.id).sort((a, b) => a - b));
  });
});
