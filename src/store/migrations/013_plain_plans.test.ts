import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { plan } from '../../../test/helpers/plan.ts';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import { findFinishedWork, finishedWalks } from '../repositories/finished-work.ts';
import { countUnreadReplies } from '../repositories/mail.ts';
import { walkQuery } from '../repositories/queue.ts';

// With no statistics, as after a large import or with autovacuum off, each planner still takes
// the queue's own index for the queue's walks: on a desk of 20,000 rows PostgreSQL took
// `work_desk_status` while it existed, and sorted every row of a status at each step. Dates are
// plain keys handed to the walk; the one clock value is the fixed test time stamped on rows.

const ROWS = 20_000;
// Open rows for the most part, as on a busy desk, where the plan went wrong; a few finished.
const STATUSES = ['waiting', 'open', 'open', 'in_progress', 'open', 'open', 'open'] as const;
/** One row in this many is finished. */
const FINISHED_EVERY = 100;

describe.each(DIALECTS)('plans on a large desk with no statistics ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    await makeWorkMany(
      store.db,
      deskId,
      Array.from({ length: ROWS }, (_, i) => {
        const finished = i % FINISHED_EVERY === 0;
        const status = finished ? (i % 2 ? 'done' : 'closed') : STATUSES[i % STATUSES.length]!;
        return {
          title: `Row ${i}`,
          status,
          priority: 1 + (i % 100),
          due_date: i % 5 === 0 ? null : `2026-0${1 + (i % 9)}-1${i % 10}`,
          waiting_on: status === 'waiting' ? 'Sam' : null,
          closed_at: finished ? TEST_NOW : null,
          replied_at: i % 1000 === 1 ? TEST_NOW : null,
        };
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  const uses = async (q: Parameters<typeof plan>[2]) => plan(store.db, name, q, { custom: true });

  it('walks the whole queue and each status down work_queue_status alone', async () => {
    for (const filters of [{}, { status: 'waiting' }]) {
      const p = await uses(walkQuery(deskId, { from: TEST_NOW.slice(0, 10) }, null, filters, 51).compile(store.db));
      expect(p).toContain('work_queue_status');
      expect(p).not.toMatch(/work_desk_status|SCAN (x|g)\b|Seq Scan|Sort Key: x\./);
    }
  });

  it('goes on from a place with a seek on its whole key, not over every row that shares its date', async () => {
    const after = { priority: 50, dueKey: '9999-12-32', id: ROWS / 2 };
    const p = await uses(
      walkQuery(deskId, { from: TEST_NOW.slice(0, 10) }, after, { status: 'open' }, 51).compile(store.db),
    );
    if (name === 'postgres') expect(p).toMatch(/Index Cond: .*\(due_key = .*\(id > /);
    else expect(p).toMatch(/work_queue_status \(desk_id=\? AND status=\? AND priority=\? AND due_key=\? AND id>\?\)/);
    expect(p).not.toMatch(/ROW\(|\(due_key, id\) >|due_key>=\?\)/);
  });

  it('counts the rows holding an unread reply from their own index, and only open ones', async () => {
    const q = store.db
      .selectFrom('work')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('desk_id', '=', deskId)
      .where('replied_at', 'is not', null)
      .where('status', 'in', ['open', 'in_progress', 'waiting'])
      .compile();
    // Whether the index serves it; which index a planner with no statistics prefers for a
    // count it can answer either way is its own affair.
    expect(await plan(store.db, name, q)).toContain('work_unread_replies');
    // Rows 1, 1001, ... hold a reply, each on an open row.
    expect(await countUnreadReplies(store.db, deskId)).toBe(ROWS / 1000);
    await store.db
      .updateTable('work')
      .set({ status: 'closed' })
      .where('desk_id', '=', deskId)
      .where('title', '=', 'Row 1')
      .execute();
    expect(await countUnreadReplies(store.db, deskId)).toBe(ROWS / 1000 - 1);
  });

  it('lists finished rows without reading the table in full', async () => {
    const rows = await findFinishedWork(store.db, deskId, 'closed', 5);
    expect(rows.map((r) => r.status)).toEqual(['closed', 'closed', 'closed', 'closed', 'closed']);
    const walks = finishedWalks(store.db, deskId, 'closed', 5);
    for (const q of [walks.dated.compile(), walks.undated(5).compile()])
      expect(await uses(q)).not.toMatch(/SCAN work\b|Seq Scan/);
  });
});
