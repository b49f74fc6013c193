import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { completeWork } from '../../src/domain/work/complete.ts';
import { newestDraft } from '../../src/domain/work/draft.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { CHANGED_SINCE } from '../../src/domain/work/seen.ts';
import { reviseDraft } from '../../src/domain/work/revise.ts';
import { sendDraft } from '../../src/domain/work/send.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox, messagesOf, timelineOf } from '../http/writes-helpers.ts';

// A send reads the message, then claims it. An edit that lands between the two is what goes
// out, and what the record says went out: never the text as first read.

describe.each(DIALECTS)('a message is sent as it was when claimed ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: TestSmtp;
  let ctx: DeskContext;
  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer();
    h = await harness(store);
    const { desk } = await makeDesk(store.db, { name: 'Claimed Text Ltd' });
    await connectMailbox(store.db, desk.id, smtp.port);
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await store?.close();
  });

  it('sends the text the owner edited after the message was first read, and records that text', async () => {
    const row = await makeWork(store.db, ctx.desk.id, {
      title: 'Ask about the lease',
      contact_email: 'lee@landlord.test',
    });
    await makeDraft(store.db, ctx.desk.id, row.id, {
      subject: 'First words',
      body: 'First body',
      to: 'lee@landlord.test',
    });
    const firstRead = (await newestDraft(ctx, row.id))!;
    expect(await reviseDraft(ctx, row.id, { subject: 'Edited words', body: 'Edited body' })).toMatchObject({
      edited: true,
    });

    const sent = await sendDraft(ctx, (await findWork(store.db, ctx.desk.id, row.id))!, firstRead, { actor: 'owner' });
    expect(sent).toMatchObject({ delivered: true, failed: false });
    const mail = smtp.received.filter((m) => m.to.includes('lee@landlord.test'));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.raw).toContain('Subject: Edited words');
    expect(mail[0]!.raw).toContain('Edited body');
    expect(mail[0]!.raw).not.toContain('First body');
    const [stored] = await messagesOf(store.db, ctx.desk.id, row.id);
    expect(stored).toMatchObject({ status: 'sent', subject: 'Edited words', body: 'Edited body' });
    expect((await timelineOf(store.db, ctx.desk.id, row.id)).map((t) => t.text)).toContain(
      'owner approved "Edited words" and it was sent to lee@landlord.test.',
    );
  });

  it('puts back unsent a message readdressed between its read and its claim, when the owner approved it as read', async () => {
    const row = await makeWork(store.db, ctx.desk.id, { title: 'Ask about the gate', contact_email: 'kim@gate.test' });
    await makeDraft(store.db, ctx.desk.id, row.id, { subject: 'The gate', body: 'Hello', to: 'kim@gate.test' });
    const firstRead = (await newestDraft(ctx, row.id))!;
    const seen = { to: 'kim@gate.test', subject: 'The gate', body: 'Hello' };
    await editWork(ctx, row.id, { contact_email: 'kim@gate-new.test' });

    const sent = await sendDraft(ctx, (await findWork(store.db, ctx.desk.id, row.id))!, firstRead, {
      actor: 'owner',
      seen,
    });
    expect(sent).toEqual({ delivered: false, failed: false, skipped: true, note: CHANGED_SINCE });
    expect(await completeWork(ctx, row.id, { draftSeen: true, seen })).toMatchObject({
      status: 'open',
      delivered: false,
      failed: false,
      delivery_note: CHANGED_SINCE,
    });
    expect(smtp.received.filter((m) => m.to.some((to) => to.includes('kim@gate')))).toEqual([]);
    const [stored] = await messagesOf(store.db, ctx.desk.id, row.id);
    expect(stored).toMatchObject({ status: 'drafted', approved_at: null, to_address: 'kim@gate-new.test' });
    expect((await timelineOf(store.db, ctx.desk.id, row.id)).map((t) => t.kind)).toEqual(['edited']);
  });
});
