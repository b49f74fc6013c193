import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { plan } from '../../../test/helpers/plan.ts';
import { makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import { walkQuery, walkQueue } from '../repositories/queue.ts';

// The whole queue has no index of its own: its walk is the three status walks, each down
// work_queue_status, merged. Dates here are plain keys given to the walk; no clock is read.

describe.each(DIALECTS)('the whole queue, walked by status ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    const statuses = ['open', 'in_progress', 'waiting', 'open', 'done'] as const;
    await makeWorkMany(
      store.db,
      deskId,
      Array.from({ length: 60 }, (_, i) => ({
        title: `Row ${i}`,
        status: statuses[i % statuses.length]!,
        // Few priorities and dates, so rows of different statuses tie on both.
        priority: 10 * (1 + (i % 3)),
        due_date: i % 4 === 0 ? null : `2026-03-0${1 + (i % 2)}`,
        waiting_on: statuses[i % statuses.length] === 'waiting' ? 'Sam' : null,
      })),
    );
    await makeWorkMany(store.db, (await makeDesk(store.db)).desk.id, [{ title: 'Theirs', priority: 99 }]);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('has no index of the whole queue left', async () => {
    const q =
      name === 'postgres'
        ? sql<{ n: string }>`select indexname as n from pg_indexes where tablename = 'work'`
        : sql<{ n: string }>`select name as n from sqlite_master where type = 'index' and tbl_name = 'work'`;
    const names = (await q.execute(store.db)).rows.map((r) => r.n);
    expect(names).toContain('work_queue_status');
    expect(names).not.toContain('work_queue');
  });

  it('reads each status down work_queue_status, never the table', async () => {
    const p = await plan(store.db, name, walkQuery(deskId, { from: '' }, null, {}, 20).compile(store.db));
    expect(p.match(/work_queue_status/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(p).not.toMatch(/SCAN (x|g|y)\b|Seq Scan/);
  });

  it('gives every open row of the desk once, in queue order, a page at a time from any position', async () => {
    const all = await store.db
      .selectFrom('work')
      .select(['id', 'priority', 'due_key'])
      .where('desk_id', '=', deskId)
      .where('status', 'in', ['open', 'in_progress', 'waiting'])
      .execute();
    const expected = all
      .map((r) => ({ id: Number(r.id), priority: Number(r.priority), dueKey: r.due_key }))
      .sort((a, b) => b.priority - a.priority || (a.dueKey < b.dueKey ? -1 : a.dueKey > b.dueKey ? 1 : a.id - b.id));
    expect(expected.length).toBe(48);
    const walked: typeof expected = [];
    let after = null;
    for (;;) {
      const page = await walkQueue(store.db, deskId, { from: '' }, after, {}, 7);
      walked.push(...page);
      if (page.length < 7) break;
      after = page[page.length - 1]!;
    }
    expect(walked).toEqual(expected);
  });
});
