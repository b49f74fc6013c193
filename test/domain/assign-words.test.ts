import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext } from '../../src/domain/context.ts';
import { assignWork } from '../../src/domain/work/assign.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// What the timeline says when a row changes hands: one store is enough, the words are the rule.

describe('giving a row and handing it back', () => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('says who took it on, who it went to, and that it went back to the desk', async () => {
    const { desk } = await makeDesk(store.db);
    const ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
    const row = await makeWork(store.db, desk.id, { title: 'Renew the licence' });
    await assignWork(ctx, row.id, 'owner');
    await assignWork(ctx, row.id, null);
    await assignWork(ctx, row.id, 'Sam');
    await assignWork(ctx, row.id, null);
    const said = await store.db
      .selectFrom('timeline')
      .select('text')
      .where('work_id', '=', row.id)
      .where('kind', '=', 'assigned')
      .orderBy('id')
      .execute();
    expect(said.map((t) => t.text)).toEqual([
      'owner took this on.',
      'owner handed this back to the desk.',
      'owner assigned this to Sam.',
      'owner took this back from Sam and handed it to the desk.',
    ]);
    // The desk's log, read apart from the row, names it.
    const logged = await store.db
      .selectFrom('events')
      .select('message')
      .where('desk_id', '=', desk.id)
      .where('kind', '=', 'work_assigned')
      .orderBy('id')
      .execute();
    expect(logged.map((e) => e.message)).toEqual([
      'owner took "Renew the licence" on.',
      'owner handed "Renew the licence" back to the desk.',
      'owner assigned "Renew the licence" to Sam.',
      'owner took "Renew the licence" back from Sam and handed it to the desk.',
    ]);
  });
});
