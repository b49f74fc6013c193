import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { ownRecord } from '../../src/domain/work/own-record.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// What the "On its own" page lists of the desk's own acts: a row finished since then needs no look.

describe('the record of what the desk did on its own', () => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    const { desk } = await makeDesk(store.db, { grants: ['reach_out'], timezone: 'Pacific/Pago_Pago' });
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('gives the fault of a row still open, and none of a row closed since', async () => {
    const hourAgo = new Date(ctx.clock.now().getTime() - 3600_000).toISOString();
    const fault = 'The mail server could not be reached.';
    const open = await makeWork(store.db, ctx.desk.id, { title: 'Still open', status: 'open', last_error: fault });
    const closed = await makeWork(store.db, ctx.desk.id, {
      title: 'Closed since',
      status: 'closed',
      last_error: fault,
      closed_at: ctx.now(),
    });
    for (const id of [open.id, closed.id])
      await store.db.updateTable('work').set({ desk_acted_at: hourAgo }).where('id', '=', id).execute();
    const record = await ownRecord(ctx);
    const byId = new Map(record.week.map((r) => [r.id, r]));
    expect(byId.get(open.id)).toMatchObject({ status: 'open', last_error: fault });
    expect(byId.get(closed.id)).toMatchObject({ status: 'closed', last_error: null });
  });
});
