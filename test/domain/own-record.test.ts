import { describe, expect, it } from 'vitest';
import { ownerDesk } from '../helpers/owner-desk.ts';
import { ownRecord } from '../../src/domain/work/own-record.ts';
import { makeWork } from '../helpers/factories.ts';

// What the "On its own" page lists of the desk's own acts: a row finished since then needs no look.

describe('the record of what the desk did on its own', () => {
  const t = ownerDesk({ grants: ['reach_out'], timezone: 'Pacific/Pago_Pago' });

  it('gives the fault of a row still open, and none of a row closed since', async () => {
    const hourAgo = new Date(t.ctx.clock.now().getTime() - 3600_000).toISOString();
    const fault = 'The mail server could not be reached.';
    const open = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Still open', status: 'open', last_error: fault });
    const closed = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Closed since',
      status: 'closed',
      last_error: fault,
      closed_at: t.ctx.now(),
    });
    for (const id of [open.id, closed.id])
      await t.store.db.updateTable('work').set({ desk_acted_at: hourAgo }).where('id', '=', id).execute();
    const record = await ownRecord(t.ctx);
    const byId = new Map(record.week.map((r) => [r.id, r]));
    expect(byId.get(open.id)).toMatchObject({ status: 'open', last_error: fault });
    expect(byId.get(closed.id)).toMatchObject({ status: 'closed', last_error: null });
  });
});
