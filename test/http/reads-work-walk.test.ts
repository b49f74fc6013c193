import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWorkMany } from '../helpers/factories.ts';
import { countOpenWork } from '../../src/store/repositories/work.ts';
import { makeArrangement } from './writes-helpers.ts';
import { addDays } from '../../src/domain/dates.ts';

// D17 on a large desk: following cursors with limit=7 reaches every open row exactly once,
// in order, with no depth limit; finished rows and other desks never appear.

const OPEN_ROWS = 5_000;
const TODAY = '2026-11-22';

/** The D17 sort key of a work item as a client sees it: no date after every date. */
const keyOf = (i: { overdue: boolean; priority: number; due_date: string | null; id: number }) =>
  [i.overdue ? 0 : 1, -i.priority, i.due_date === null ? 1 : 0, i.due_date ?? '', i.id] as const;
function inOrder(a: ReturnType<typeof keyOf>, b: ReturnType<typeof keyOf>): boolean {
  for (let j = 0; j < a.length; j++) {
    if (a[j]! < b[j]!) return true;
    if (a[j]! > b[j]!) return false;
  }
  return false;
}

describe.each(DIALECTS)('a cursor walk over a 5,000-row desk ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  let arrangementId: number;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    d = await makeDesk(store.db);
    const other = await makeDesk(store.db);
    arrangementId = (await makeArrangement(store.db, d.desk.id)).id;
    const rows: Array<Parameters<typeof makeWorkMany>[2][number]> = [];
    let openRows = 0;
    for (let i = 0; openRows < OPEN_ROWS; i++) {
      // Every eighth row is finished; a thousand rows share one priority and one date, so
      // the tie-break on id carries a long stretch of the walk.
      const status =
        i % 8 === 7
          ? i % 16 === 7
            ? 'done'
            : 'closed'
          : (['open', 'open', 'in_progress', 'waiting'] as const)[i % 4]!;
      const tied = i % 5 === 0;
      // Some rows are due on the last day there is, and must still come before the undated.
      const due = tied
        ? '2026-11-30'
        : i % 6 === 0
          ? null
          : i % 11 === 1
            ? '9999-12-31'
            : addDays(TODAY, (i % 61) - 30);
      rows.push({
        title: `Row ${i}`,
        status,
        priority: tied ? 50 : 1 + ((i * 37) % 100),
        due_date: due,
        kind: i % 3 ? 'filing' : 'renewal',
        closed_at: status === 'done' || status === 'closed' ? TEST_NOW : null,
        waiting_on: status === 'waiting' ? 'Sam' : null,
        arrangement_id: i % 13 === 0 ? arrangementId : null,
      });
      if (status !== 'done' && status !== 'closed') openRows += 1;
    }
    await makeWorkMany(store.db, d.desk.id, rows);
    await makeWorkMany(
      store.db,
      other.desk.id,
      Array.from({ length: 300 }, (_, i) => ({
        title: `Theirs ${i}`,
        priority: 1 + (i % 100),
        due_date: i % 2 ? '2026-01-01' : null,
      })),
    );
  }, 120_000);
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('keeps the open count exact while rows go in in batches', async () => {
    expect(await countOpenWork(store.db, d.desk.id)).toBe(OPEN_ROWS);
    const me = (await h.call('GET', '/api/v1/me', { key: d.key })).json().data.work;
    expect(me.open).toBe(OPEN_ROWS);
  });

  it('with limit=7 sees each open row once, in order, and nothing else', async () => {
    const openIds = new Set(
      (
        await store.db
          .selectFrom('work')
          .select('id')
          .where('desk_id', '=', d.desk.id)
          .where('status', 'in', ['open', 'in_progress', 'waiting'])
          .execute()
      ).map((r) => r.id),
    );
    expect(openIds.size).toBe(OPEN_ROWS);

    const seen = new Set<number>();
    let previous: ReturnType<typeof keyOf> | null = null;
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await h.call('GET', `/api/v1/work?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        key: d.key,
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      pages += 1;
      expect(data.open_total).toBe(OPEN_ROWS);
      expect(data.items.length).toBe(data.next_cursor ? 7 : OPEN_ROWS % 7 || 7);
      for (const item of data.items) {
        expect(openIds.has(item.id), `row ${item.id} is not an open row of this desk`).toBe(true);
        expect(seen.has(item.id), `row ${item.id} seen twice`).toBe(false);
        expect(item.status).not.toMatch(/^(done|closed)$/);
        seen.add(item.id);
        const k = keyOf(item);
        if (previous)
          expect(inOrder(previous, k), `${JSON.stringify(previous)} before ${JSON.stringify(k)}`).toBe(true);
        previous = k;
      }
      cursor = data.next_cursor;
    } while (cursor && pages < 2_000);
    expect(cursor).toBeNull();
    expect(seen.size).toBe(OPEN_ROWS);
    expect(pages).toBe(Math.ceil(OPEN_ROWS / 7));
  }, 300_000);

  async function filteredWalk(
    query: string,
    limit: number,
  ): Promise<Array<{ id: number } & Parameters<typeof keyOf>[0]>> {
    const seen: Array<{ id: number } & Parameters<typeof keyOf>[0]> = [];
    let cursor: string | null = null;
    do {
      const res = await h.call(
        'GET',
        `/api/v1/work?limit=${limit}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: d.key },
      );
      expect(res.json().data.open_total).toBe(OPEN_ROWS);
      seen.push(...res.json().data.items);
      cursor = res.json().data.next_cursor;
    } while (cursor);
    return seen;
  }

  it.each([
    ['status=waiting&kind=renewal', 200, { status: 'waiting', kind: 'renewal' }],
    ['kind=renewal', 50, { kind: 'renewal' }],
    ['status=in_progress', 77, { status: 'in_progress' }],
    ['arrangement=ARR', 7, { arrangement: true }],
    ['arrangement=ARR&status=open', 7, { arrangement: true, status: 'open' }],
  ] as const)(
    'a walk filtered by %s reaches every matching row once, in order',
    async (query, limit, f) => {
      let q = store.db
        .selectFrom('work')
        .select('id')
        .where('desk_id', '=', d.desk.id)
        .where('status', 'in', ['open', 'in_progress', 'waiting']);
      if ('status' in f) q = q.where('status', '=', f.status);
      if ('kind' in f) q = q.where('kind', '=', f.kind);
      if ('arrangement' in f) q = q.where('arrangement_id', '=', arrangementId);
      const expected = (await q.execute()).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(limit);
      const seen = await filteredWalk(query.replace('ARR', String(arrangementId)), limit);
      expect(seen.map((i) => i.id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      for (let j = 1; j < seen.length; j++) expect(inOrder(keyOf(seen[j - 1]!), keyOf(seen[j]!))).toBe(true);
    },
    120_000,
  );

  it('limit=5000 is brought down to 200', async () => {
    const data = (await h.call('GET', '/api/v1/work?limit=5000', { key: d.key })).json().data;
    expect(data.items).toHaveLength(200);
    expect(data.next_cursor).toEqual(expect.any(String));
  });
});
