import { describe, expect, it } from 'vitest';
import { reviseDraft } from '../../src/domain/work/revise.ts';
import { ownerDesk } from '../helpers/owner-desk.ts';
import { makeDraft, makeWork } from '../helpers/factories.ts';

// The owner's edit of a prepared message before approving it: only a real change is one.

describe('revising a prepared message', () => {
  const t = ownerDesk({ grants: [], timezone: 'UTC' });

  const drafted = async (body: string) => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Confirm', contact_email: 'a@b.test' });
    const draft = await makeDraft(t.store.db, t.ctx.desk.id, row.id, { subject: 'Hello', body, to: 'a@b.test' });
    const stored = () =>
      t.store.db
        .selectFrom('activity')
        .select(['subject', 'body'])
        .where('id', '=', draft.id)
        .executeTakeFirstOrThrow();
    return { row, draft, stored };
  };

  it('leaves the message as the desk wrote it when only its outer spaces and last line break differ', async () => {
    const { row, stored } = await drafted('Hi,\n\nIs Monday fine?\n');
    expect(await reviseDraft(t.ctx, row.id, { subject: ' Hello ', body: 'Hi,\n\nIs Monday fine?' })).toMatchObject({
      edited: false,
    });
    expect((await stored()).body).toBe('Hi,\n\nIs Monday fine?\n');
  });

  it('refuses a subject of more than one line, and keeps a body of several', async () => {
    const { row, stored } = await drafted('Hi,\n\nIs Monday fine?');
    for (const subject of ['Hello\r\nBcc: x@evil.test', 'Hello\tthere', 'Hello\u2028there'])
      await expect(
        reviseDraft(t.ctx, row.id, { subject, body: 'Hi,\n\nIs Friday fine?' }),
        JSON.stringify(subject),
      ).rejects.toMatchObject({
        details: { field: 'subject' },
        message: 'The subject is one line: it holds a line break or another control character.',
      });
    expect((await stored()).body).toBe('Hi,\n\nIs Monday fine?');
  });

  it('takes a subject drafted over two lines, sent back on one or with its line break dropped, as no rewrite', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Invoice', contact_email: 'a@b.test' });
    const draft = await makeDraft(t.store.db, t.ctx.desk.id, row.id, {
      subject: 'Invoice 88\nsecond line',
      body: 'Hi',
      to: 'a@b.test',
    });
    const stored = () =>
      t.store.db
        .selectFrom('activity')
        .select(['subject', 'body'])
        .where('id', '=', draft.id)
        .executeTakeFirstOrThrow();
    for (const subject of ['Invoice 88 second line', 'Invoice 88second line'])
      expect(await reviseDraft(t.ctx, row.id, { subject, body: 'Hi' }), subject).toMatchObject({ edited: false });
    // A new body keeps the subject as drafted; it goes on one line (send.ts).
    expect(await reviseDraft(t.ctx, row.id, { subject: 'Invoice 88second line', body: 'Hello' })).toMatchObject({
      edited: true,
    });
    expect(await stored()).toEqual({ subject: 'Invoice 88\nsecond line', body: 'Hello' });
  });

  it('stores a changed body, trimmed', async () => {
    const { row, stored } = await drafted('Hi,\n\nIs Monday fine?\n');
    expect(await reviseDraft(t.ctx, row.id, { subject: 'Hello', body: 'Hi,\n\nIs Tuesday fine?\n' })).toMatchObject({
      edited: true,
    });
    expect((await stored()).body).toBe('Hi,\n\nIs Tuesday fine?');
  });

  it('closes a writing direction the subject or body leaves open, as every kept text is (P-text-3)', async () => {
    const { row, draft } = await drafted('Hi');
    expect(
      await reviseDraft(t.ctx, row.id, { subject: '\u202eevil 👨‍👩‍👧', body: 'Hello \u2067isolate' }),
    ).toMatchObject({ edited: true });
    const kept = await t.store.db
      .selectFrom('activity')
      .select(['subject', 'body'])
      .where('id', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ subject: '\u202eevil 👨‍👩‍👧\u202c', body: 'Hello \u2067isolate\u2069' });
  });

  it('writes nothing when the message changed since the page showed it, in a field sent back as shown or in its address (P-screen-work-6)', async () => {
    // The page showed "Hello Jo Frame,"; the draft took the corrected name after it was drawn.
    const { row, draft, stored } = await drafted('Hello Jo Frame,\n\nIs Monday fine?');
    await t.store.db
      .updateTable('activity')
      .set({ body: 'Hello Joanna Frame,\n\nIs Monday fine?' })
      .where('id', '=', draft.id)
      .execute();
    const drawn = { to: 'a@b.test', subject: 'Hello', body: 'Hello Jo Frame,\r\n\r\nIs Monday fine?' };
    const edits = () =>
      t.store.db
        .selectFrom('timeline')
        .select('kind')
        .where('work_id', '=', row.id)
        .where('kind', '=', 'draft_edited')
        .execute();
    expect(await reviseDraft(t.ctx, row.id, { subject: 'Hello', body: drawn.body, drawn })).toEqual({ unseen: true });
    // A subject the owner changed does not make the body they left as shown one they read.
    expect(await reviseDraft(t.ctx, row.id, { subject: 'Monday', body: drawn.body, drawn })).toEqual({ unseen: true });
    expect(await stored()).toEqual({ subject: 'Hello', body: 'Hello Joanna Frame,\n\nIs Monday fine?' });
    expect(await edits()).toEqual([]);

    // The body the owner rewrote is theirs; the subject left as shown is as it was drawn.
    expect(await reviseDraft(t.ctx, row.id, { subject: 'Hello', body: 'Hi Jo,\n\nMonday?', drawn })).toEqual({
      edited: true,
      message: { to: 'a@b.test', subject: 'Hello', body: 'Hi Jo,\n\nMonday?' },
    });
    expect(await edits()).toHaveLength(1);

    // Readdressed since: nothing the owner sends back from that page is written.
    await t.store.db.updateTable('activity').set({ to_address: 'jo@new.test' }).where('id', '=', draft.id).execute();
    const now = { ...drawn, body: 'Hi Jo,\n\nMonday?' };
    expect(await reviseDraft(t.ctx, row.id, { subject: 'Friday', body: 'Hi Jo,\n\nFriday?', drawn: now })).toEqual({
      unseen: true,
    });
    expect(await stored()).toEqual({ subject: 'Hello', body: 'Hi Jo,\n\nMonday?' });
    // The same address in another case of A to Z is the one shown; a page that showed none compares none.
    expect(
      await reviseDraft(t.ctx, row.id, { subject: 'Hello', body: now.body, drawn: { ...now, to: 'JO@New.test' } }),
    ).toMatchObject({ edited: false });
    expect(await reviseDraft(t.ctx, row.id, { subject: 'Hello', body: now.body, drawn: { subject: 'Hello' } })).toEqual(
      {
        edited: false,
        message: { to: 'jo@new.test', subject: 'Hello', body: 'Hi Jo,\n\nMonday?' },
      },
    );
  });
});
