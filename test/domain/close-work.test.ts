import { describe, expect, it } from 'vitest';
import { closeWork } from '../../src/domain/work/status.ts';
import { assignWork } from '../../src/domain/work/assign.ts';
import { completeWork, RUN_UNDER_WAY } from '../../src/domain/work/complete.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { insertRun } from '../../src/store/repositories/runs.ts';
import { makeDraft, makeWork } from '../helpers/factories.ts';
import { ownerDesk } from '../helpers/owner-desk.ts';
import { messagesOf, timelineOf } from '../http/writes-helpers.ts';
import { staleAt } from '../../src/domain/work/run-record.ts';

// The owner's close ends a row for good: what it had prepared goes with it, and it does not
// decide the row's end while a send or a run is deciding it.

describe("the owner's close, and giving a row to a person", () => {
  const t = ownerDesk({ name: 'Closing Time Ltd' });

  it('withdraws the message the row had prepared, and says so on the timeline', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Ask for the quote', contact_email: 'q@x.test' });
    await makeDraft(t.store.db, t.ctx.desk.id, row.id, { subject: 'The quote', to: 'q@x.test' });
    await closeWork(t.ctx, row.id, { note: 'Found another supplier' });
    expect(await messagesOf(t.store.db, t.ctx.desk.id, row.id)).toEqual([]);
    expect((await timelineOf(t.store.db, t.ctx.desk.id, row.id)).at(-1)?.text).toBe(
      'owner closed this: Found another supplier. The prepared message "The quote" was withdrawn, unsent.',
    );
  });

  it('is refused while a message on the row is being sent, and changes nothing', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Chase the deposit', contact_email: 'd@x.test' });
    const m = await makeDraft(t.store.db, t.ctx.desk.id, row.id, {
      subject: 'Deposit',
      to: 'd@x.test',
      status: 'approved',
    });
    // Claimed a moment ago and not yet sent or failed: a send under way.
    await t.store.db.updateTable('activity').set({ approved_at: t.ctx.now() }).where('id', '=', m.id).execute();
    await expect(closeWork(t.ctx, row.id)).rejects.toMatchObject({
      code: 'bad_request',
      message: `Work item ${row.id} is not closed: a message on it is being sent right now. Try again once the send has finished, in a moment.`,
    });
    expect(await findWork(t.store.db, t.ctx.desk.id, row.id)).toMatchObject({ status: 'open' });
  });

  it('is refused while a run on the row is under way', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'File the return', status: 'in_progress' });
    await insertRun(t.store.db, {
      deskId: t.ctx.desk.id,
      workId: row.id,
      how: 'playbook',
      priorStatus: 'open',
      at: t.ctx.now(),
      staleAt: staleAt(t.ctx, t.ctx.now()),
    });
    await expect(closeWork(t.ctx, row.id)).rejects.toMatchObject({
      message: `Work item ${row.id} is not closed: the desk is working on it right now (a run is under way). Try again once the run has finished.`,
    });
    expect(await findWork(t.store.db, t.ctx.desk.id, row.id)).toMatchObject({ status: 'in_progress' });
    // Nor is it given to a person while the desk runs it; handing a row back is always taken.
    await expect(assignWork(t.ctx, row.id, 'Sam')).rejects.toMatchObject({
      message: `Work item ${row.id} is not given to Sam: the desk is working on it right now (a run is under way). Try again once the run has finished.`,
    });
    expect(await findWork(t.store.db, t.ctx.desk.id, row.id)).toMatchObject({ assignee: null });
    await assignWork(t.ctx, row.id, null);
  });

  it('a complete while a run is under way sends nothing, marks nothing done and says why (P-complete-3)', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'File the VAT return', status: 'in_progress' });
    const draft = await makeDraft(t.store.db, t.ctx.desk.id, row.id, { subject: 'VAT', to: 'v@x.test' });
    await insertRun(t.store.db, {
      deskId: t.ctx.desk.id,
      workId: row.id,
      how: 'playbook',
      priorStatus: 'open',
      at: t.ctx.now(),
      staleAt: staleAt(t.ctx, t.ctx.now()),
    });
    const said = await completeWork(t.ctx, row.id, { note: 'Done by hand meanwhile' });
    expect(said).toEqual({
      id: row.id,
      status: 'in_progress',
      waiting_on: null,
      failed: false,
      delivered: false,
      delivery_note: RUN_UNDER_WAY,
    });
    expect(await findWork(t.store.db, t.ctx.desk.id, row.id)).toMatchObject({ status: 'in_progress', detail: null });
    expect((await messagesOf(t.store.db, t.ctx.desk.id, row.id)).map((m) => [m.id, m.status])).toEqual([
      [draft.id, 'drafted'],
    ]);
  });
});
