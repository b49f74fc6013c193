import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import { findFinishedWork } from './finished-work.ts';

describe.each(DIALECTS)("a desk's finished rows ($name)", ({ open }) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store.close();
  });

  it('list the most recently finished first, ties newest row first, and the undated after them all', async () => {
    const mine = (await makeDesk(store.db)).desk.id;
    const other = (await makeDesk(store.db)).desk.id;
    const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();
    await makeWorkMany(store.db, mine, [
      { title: 'undated 1', status: 'done', closed_at: null },
      { title: 'day 2', status: 'done', closed_at: at(2) },
      { title: 'day 5 a', status: 'done', closed_at: at(5) },
      { title: 'undated 2', status: 'done', closed_at: null },
      { title: 'day 5 b', status: 'done', closed_at: at(5) },
      { title: 'closed', status: 'closed', closed_at: at(9) },
      { title: 'open', status: 'open' },
    ]);
    await makeWorkMany(store.db, other, [{ title: 'elsewhere', status: 'done', closed_at: at(20) }]);
    const titles = async (limit: number) => (await findFinishedWork(store.db, mine, 'done', limit)).map((r) => r.title);
    expect(await titles(10)).toEqual(['day 5 b', 'day 5 a', 'day 2', 'undated 2', 'undated 1']);
    expect(await titles(3)).toEqual(['day 5 b', 'day 5 a', 'day 2']);
    expect(await titles(4)).toEqual(['day 5 b', 'day 5 a', 'day 2', 'undated 2']);
    expect((await findFinishedWork(store.db, mine, 'closed', 10)).map((r) => r.title)).toEqual(['closed']);
  });
});
