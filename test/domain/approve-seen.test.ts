import { describe, expect, it } from 'vitest';
import { completeWork, NOTHING_TO_APPROVE } from '../../src/domain/work/complete.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { approveDraft } from '../../src/domain/work/revise.ts';
import { CHANGED_SINCE } from '../../src/domain/work/seen.ts';
import { timelineOf } from '../../src/store/repositories/events.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { makeDraft, makeWork } from '../helpers/factories.ts';
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

  it('sends nothing when the contact was changed since the page was drawn, and sends what the page showed', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Confirm the delivery',
      contact_name: 'Jo Frame',
      contact_email: 'jo@frame.test',
    });
    const draft = await makeDraft(t.store.db, t.ctx.desk.id, row.id, {
      subject: 'Delivery',
      body: 'Hello Jo Frame,\n\nIs Monday fine?',
      to: 'jo@frame.test',
    });
    const drawn = { to: 'jo@frame.test', subject: 'Delivery', body: 'Hello Jo Frame,\r\n\r\nIs Monday fine?' };
    const page = { subject: drawn.subject, body: drawn.body, drawn };
    const stored = () =>
      t.store.db
        .selectFrom('activity')
        .select(['status', 'to_address', 'body'])
        .where('id', '=', draft.id)
        .executeTakeFirstOrThrow();
    const tried = async () =>
      (await timelineOf(t.store.db, t.ctx.desk.id, row.id))
        .map((e) => e.kind)
        .filter((k) => ['sent', 'send_failed', 'completed', 'draft_edited'].includes(k));

    // The CLI corrects the address after the page was drawn: the prepared message follows it.
    await editWork(t.ctx, row.id, { contact_email: 'jo@frame-new.test' });
    expect(await approveDraft(t.ctx, row.id, page)).toEqual({ approved: false, reason: CHANGED_SINCE });
    // The owner's own edit from that page is not written either.
    expect(await approveDraft(t.ctx, row.id, { ...page, body: 'Hi Jo,\n\nMonday?' })).toEqual({
      approved: false,
      reason: CHANGED_SINCE,
    });
    expect(await stored()).toEqual({ status: 'drafted', to_address: 'jo@frame-new.test', body: draft.body });

    // The name too: the message now greets the corrected one, which the page did not show.
    await editWork(t.ctx, row.id, { contact_name: 'Joanna Frame' });
    const now = { to: 'jo@frame-new.test', subject: 'Delivery', body: draft.body };
    expect(await approveDraft(t.ctx, row.id, { subject: now.subject, body: now.body, drawn: now })).toEqual({
      approved: false,
      reason: CHANGED_SINCE,
    });
    expect(await stored()).toMatchObject({ status: 'drafted', body: 'Hello Joanna Frame,\n\nIs Monday fine?' });
    expect(await tried()).toEqual([]);
    expect(await findWork(t.store.db, t.ctx.desk.id, row.id)).toMatchObject({ status: 'open' });

    // Drawn again, the page shows the message as it is, and approving that goes ahead.
    const again = { ...now, body: 'Hello Joanna Frame,\n\nIs Monday fine?' };
    const sent = await approveDraft(t.ctx, row.id, { subject: again.subject, body: again.body, drawn: again });
    expect(sent).not.toHaveProperty('approved');
    expect((await stored()).status).not.toBe('drafted');
  });

  it('goes ahead from a page drawn before the form carried the address, as before', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Book the van', contact_email: 'sam@vans.test' });
    const draft = await makeDraft(t.store.db, t.ctx.desk.id, row.id, {
      subject: 'Van',
      body: 'Hi',
      to: 'sam@vans.test',
    });
    await editWork(t.ctx, row.id, { contact_email: 'sam@vans-new.test' });
    const sent = await approveDraft(t.ctx, row.id, {
      subject: 'Van',
      body: 'Hi',
      drawn: { subject: 'Van', body: 'Hi' },
    });
    expect(sent).not.toHaveProperty('approved');
    const kept = await t.store.db
      .selectFrom('activity')
      .select(['status', 'to_address'])
      .where('id', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ status: 'approved', to_address: 'sam@vans-new.test' });
  });
});
