import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dateIn } from '../../src/domain/dates.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWorkMany } from '../helpers/factories.ts';
import { turnsDuring } from '../helpers/turns.ts';
import { overdueWork } from '../../src/app/chat/facts.ts';
import { deskContext } from '../../src/domain/context.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';

// Chat on a desk of more open rows than one read takes: every count is of the whole desk, as
// GET /me and /permissions count it, and only the first rows are named.

const OVERDUE = 1_005;

describe.each(DIALECTS)('POST /chat on a large desk ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let key: string;
  let deskId: string;
  const today = dateIn('UTC', new Date(TEST_NOW));

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const made = await makeDesk(store.db, { name: 'Big Shop', timezone: 'UTC' });
    key = made.key;
    deskId = made.desk.id;
    await makeWorkMany(
      store.db,
      made.desk.id,
      Array.from({ length: OVERDUE }, (_, i) => ({
        title: `Old job ${i + 1}`,
        due_date: addDays(today, -1 - (i % 30)),
      })),
    );
    await makeWorkMany(
      store.db,
      made.desk.id,
      Array.from({ length: 5 }, (_, i) => ({
        title: `Reply from Bob ${i + 1}`,
        due_date: addDays(today, i + 1),
        waiting_on: 'Bob',
        waiting_since: addDays(today, -3),
      })),
    );
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('counts a batch at a time, letting the rest of the process in between batches', async () => {
    const desk = (await findDesk(store.db, deskId))!;
    const ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
    let total = 0;
    expect(await turnsDuring(async () => (total = (await overdueWork(ctx)).total))).toBeGreaterThan(0);
    expect(total).toBe(OVERDUE);
  });

  const answerTo = async (text: string): Promise<string> => {
    const res = await h.call('POST', '/api/v1/chat', { key, body: { text } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.answer;
  };

  it('counts every overdue row, names ten and says how many more', async () => {
    const me = (await h.call('GET', '/api/v1/me', { key })).json().data;
    expect(me.work.open).toBe(OVERDUE + 5);
    const answer = await answerTo('what is overdue?');
    expect(answer).toMatch(/^1,005 rows are overdue\. /);
    expect(answer).toMatch(/ And 995 more\.$/);
    // The oldest first, as the queue has them.
    expect(answer).toContain(`was due ${addDays(today, -30)}`);
  });

  it("counts what needs the owner over the whole desk: every row whose next step is a person's", async () => {
    // The rows out with Bob wait on him, not on the owner (P-chat-1).
    const answer = await answerTo('what needs me?');
    expect(answer).toMatch(/^1,005 rows need you\. /);
    expect(answer).toMatch(/ And 995 more\.$/);
  });

  it('finds the rows due in a window past the first thousand, and counts the overdue apart', async () => {
    const answer = await answerTo('what is due this week?');
    expect(answer).toMatch(/^5 rows are due in the next 7 days \(up to \d{4}-\d\d-\d\d\)\. /);
    expect(answer).toContain('Reply from Bob 1');
    expect(answer).toContain('1,005 rows are also overdue.');
    expect(await answerTo('what is due?')).toMatch(/^1,010 open rows have a due date, soonest first\. /);
    expect(await answerTo('what are we waiting on?')).toMatch(/^We are waiting on 5 rows\. /);
  });
});
