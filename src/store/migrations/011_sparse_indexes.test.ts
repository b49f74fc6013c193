import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { plan } from '../../../test/helpers/plan.ts';
import { makeArrangement, makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import { passPage } from '../repositories/pass.ts';
import { walkQuery } from '../repositories/queue.ts';

// The two indexes that leave out NULL rows must still be the ones the arrangement walk and the
// pass read: each planner has to see that `x = ?` rules out NULL. A plan that fell back to
// another index or to the table would still answer, only ever slower as the queue grows.
// No clock is involved: the pass is given its horizon, so these dates are plain keys, true on
// any day.

describe.each(DIALECTS)('indexes without their NULL rows ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;
  let arrangementId: number;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    arrangementId = (await makeArrangement(store.db, deskId)).id;
    await makeWorkMany(
      store.db,
      deskId,
      Array.from({ length: 40 }, (_, i) => ({
        title: `Row ${i}`,
        class: i % 2 ? 'file' : null,
        arrangement_id: i % 3 ? null : arrangementId,
        due_date: '2026-03-01',
      })),
    );
  });
  afterAll(async () => {
    await store?.close();
  });

  it('the arrangement walk reads work_queue_arrangement', async () => {
    const q = walkQuery(deskId, { from: '' }, null, { arrangementId }, 50).compile(store.db);
    const p = await plan(store.db, name, q);
    expect(p).toContain('work_queue_arrangement');
    expect(p).not.toMatch(/SCAN x\b|Seq Scan/);
  });

  it('a page of the pass reads work_pass_due, from its first page and after a position', async () => {
    const seen: CompiledQuery[] = [];
    const spy: KyselyPlugin = {
      transformQuery: (a) => {
        seen.push(store.db.getExecutor().compileQuery(a.node, a.queryId));
        return a.node;
      },
      transformResult: async (a) => a.result,
    };
    const source = { kind: 'due', cls: 'file', horizon: '2026-12-31' } as const;
    await passPage(store.db.withPlugin(spy), deskId, source, null, 10);
    await passPage(store.db.withPlugin(spy), deskId, source, { key: '2026-03-01', id: 1_000_000_000 }, 10);
    expect(seen.length).toBe(3);
    for (const q of seen) {
      const p = await plan(store.db, name, q);
      expect(p).toContain('work_pass_due');
      expect(p).not.toMatch(/SCAN work\b|Seq Scan/);
    }
  });

  it('returns the same rows as before: every row of the arrangement, every row of the class', async () => {
    const walked = await store.db
      .executeQuery(walkQuery(deskId, { from: '' }, null, { arrangementId }, 50).compile(store.db))
      .then((r) => r.rows.length);
    expect(walked).toBe(14);
    const page = await passPage(store.db, deskId, { kind: 'due', cls: 'file', horizon: '2026-12-31' }, null, 50);
    expect(page.length).toBe(20);
  });
});
