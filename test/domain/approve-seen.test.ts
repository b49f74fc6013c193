import { describe, expect, it } from 'vitest';
import { completeWork, NOTHING_TO_APPROVE } from '../../src/domain/work/complete.ts';
import { approveDraft } from '../../src/domain/work/revise.ts';
import { timelineOf } from '../../src/store/repositories/events.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { makeWork } from '../helpers/factories.ts';
import { ownerDesk } from '../helpers/owner-desk.ts';

// "Approve and send" approves a message the owner was shown. Gone by the time it is carried out
// (the desk sent it, or it was withdrawn), the row is not then marked done by hand (P-screen-3).

describe('approving a message that is no longer there', () => {
  const t = ownerDesk({ name: 'Approvals Ltd' });

  it('leaves the row as it was, whether the message was gone before the approval or went during it', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Confirm the order', contact_email: 'a@mill.test' });
    expect(await approveDraft(t.ctx, row.id, { subject: 'Order', body: 'Confirmed.' })).toEqual({
      approved: false,
      reason: NOTHING_TO_APPROVE,
    });
    // The same check where the send would be: the message went between the look and the send.
    const during = await completeWork(t.ctx, row.id, { draftSeen: true });
    expect(during).toMatchObject({
      status: 'open',
      delivered: false,
      failed: false,
      delivery_note: NOTHING_TO_APPROVE,
    });
    expect(await findWork(t.store.db, t.ctx.desk.id, row.id)).toMatchObject({ status: 'open', closed_at: null });
    expect((await timelineOf(t.store.db, t.ctx.desk.id, row.id)).map((e) => e.kind)).not.toContain('completed');
  });
});
