import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import type { WorkRow } from '../schema.ts';
import { passPage, passPosition, type PassSource } from './pass.ts';

// No clock is involved: a page is asked for with its horizon and limit given, so these dates are
// plain keys, true on any day.
const SINCE = '2026-03-02T09:00:00.000Z';

describe.each(DIALECTS)('the pass reads the rows in reach a page at a time ($name)', ({ open }) => {
  let store: TestStore;
  let deskId: string;
  let ids: { due: number[]; undated: number[]; waiting: number[] };

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    // Many rows on one due date and one waiting instant, so pages start inside a run of equal keys.
    const rows = Array.from({ length: 230 }, (_, i) => ({
      title: `Row ${i}`,
      class: 'file',
      due_date: i < 5 ? null : i < 200 ? '2026-03-01' : i < 220 ? '2026-03-02' : '2026-04-01',
      status: i % 2 ? 'waiting' : 'open',
      waiting_on: i % 2 ? 'Sam' : null,
      waiting_since: i % 2 ? SINCE : null,
    }));
    await makeWorkMany(store.db, deskId, rows);
    const all = await store.db.selectFrom('work').selectAll().where('desk_id', '=', deskId).orderBy('id').execute();
    const of = (n: number) => all[n]!.id;
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => of(from + i));
    ids = {
      due: range(5, 220),
      undated: range(0, 5),
      waiting: range(0, 230).filter((_, i) => i % 2),
    };
  });
  afterAll(async () => {
    await store?.close();
  });

  async function walk(source: PassSource, count: number): Promise<number[]> {
    const seen: number[] = [];
    let after = null;
    for (;;) {
      const page: WorkRow[] = await passPage(store.db, deskId, source, after, count);
      seen.push(...page.map((r) => r.id));
      if (page.length < count) return seen;
      after = passPosition(source, page[page.length - 1]!);
    }
  }

  it('gives every row in reach once, in the order of its index, whatever the page size', async () => {
    for (const count of [1, 7, 50, 200, 1000]) {
      expect(await walk({ kind: 'due', cls: 'file', horizon: '2026-03-02' }, count)).toEqual(ids.due);
      expect(await walk({ kind: 'undated', cls: 'file' }, count)).toEqual(ids.undated);
      expect(await walk({ kind: 'waiting', before: '2026-03-03' }, count)).toEqual(ids.waiting);
    }
  });

  it('leaves out what is beyond the horizon, of another class, or out since the limit', async () => {
    expect(await walk({ kind: 'due', cls: 'file', horizon: '2026-02-28' }, 50)).toEqual([]);
    expect(await walk({ kind: 'due', cls: 'reach_out', horizon: '2026-12-31' }, 50)).toEqual([]);
    expect(await walk({ kind: 'waiting', before: SINCE }, 50)).toEqual([]);
  });
});
