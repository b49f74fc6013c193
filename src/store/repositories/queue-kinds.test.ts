import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import { openKinds } from './queue.ts';

describe.each(DIALECTS)("the kinds of a desk's open rows ($name)", ({ open }) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store.close();
  });

  it('are each kind of an open row once, in order, and none only finished rows or another desk have', async () => {
    const mine = (await makeDesk(store.db)).desk.id;
    const other = (await makeDesk(store.db)).desk.id;
    await makeWorkMany(store.db, mine, [
      ...Array.from({ length: 300 }, (_, i) => ({ title: `r${i}`, kind: i % 2 ? 'renewal' : 'filing' })),
      { title: 'w', kind: 'chase', status: 'waiting' },
      { title: 'p', kind: 'bulk', status: 'in_progress' },
      { title: 'd', kind: 'archive', status: 'done' },
      { title: 'c', kind: 'zeta', status: 'closed' },
    ]);
    await makeWorkMany(store.db, other, [{ title: 'o', kind: 'elsewhere' }]);
    expect(await openKinds(store.db, mine)).toEqual(['bulk', 'chase', 'filing', 'renewal']);
    expect(await openKinds(store.db, (await makeDesk(store.db)).desk.id)).toEqual([]);
  });
});
