import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { setGrant } from '../../src/domain/grants/manage.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { SENDING } from '../../src/domain/work/draft.ts';
import { connectMailbox, eventsOf, itemOf, makeArrangement, messagesOf, timelineOf } from './writes-helpers.ts';
import { makePlaybook } from './run-helpers.ts';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

describe.each(DIALECTS)('work writes: complete, draft, snooze ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: Smtp;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    h.call('POST', `/api/v1${path}`, { key: d.key, body, headers });

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'accept' });
    h = await harness(store, { config: { mailTimeoutMs: 1500 } });
    d = await makeDesk(store.db, { name: 'Corner Bakery Ltd' });
    await connectMailbox(store.db, d.desk.id, smtp.port);
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
    await store.close();
  });

  const sentTo = (address: string) => smtp.received.filter((m) => JSON.stringify(m).includes(address));

  it('drives a row from prepare through draft and approve-and-send to waiting', async () => {
    const arr = await makeArrangement(store.db, d.desk.id);
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask about the lease renewal',
      class: 'reach_out',
      contact_name: 'Priya Shah',
      contact_email: 'priya+flow@landlord.test',
      due_date: '2026-12-01',
      arrangement_id: arr.id,
    });
    expect((await itemOf(store.db, d.desk.id, row.id)).action?.type).toBe('prepare');

    const drafted = await post(`/work/${row.id}/draft`);
    expect(drafted.statusCode).toBe(200);
    const draft = drafted.json().data;
    expect(draft).toMatchObject({ drafted: true, channel: 'email', to: 'priya+flow@landlord.test' });
    expect(draft.subject).toContain('Ask about the lease renewal');
    expect(draft.body).toContain('Priya Shah');
    expect(draft.body).toContain('2026-12-01');
    expect(draft.body).toContain('High Street lease');
    const item = await itemOf(store.db, d.desk.id, row.id);
    expect(item.action?.type).toBe('approve');
    expect(item.has_draft).toBe(true);

    // Never re-drafts: the same message comes back and there is still one.
    const again = await post(`/work/${row.id}/draft`);
    expect(again.json().data).toEqual(draft);
    expect(await messagesOf(store.db, d.desk.id, row.id)).toHaveLength(1);

    const before = smtp.received.length;
    const done = await post(`/work/${row.id}/complete`, { note: 'Approved after reading it.' });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({
      id: row.id,
      status: 'waiting',
      waiting_on: 'Priya Shah',
      failed: false,
      delivered: true,
    });
    expect(smtp.received.length).toBe(before + 1);
    expect(sentTo('priya+flow@landlord.test')).toHaveLength(1);
    expect(JSON.stringify(sentTo('priya+flow@landlord.test')[0])).toContain('Ask about the lease renewal');

    const [msg] = await messagesOf(store.db, d.desk.id, row.id);
    expect(msg).toMatchObject({ status: 'sent', actor: 'desk', to_address: 'priya+flow@landlord.test' });
    expect(msg!.sent_at).not.toBeNull();
    expect(msg!.approved_at).not.toBeNull();
    // The Message-ID it went out with is kept, so a follow-up can thread on it.
    expect(msg!.message_id).toMatch(/^<[A-Za-z0-9_-]{22}\.desk@[a-z0-9.-]+>$/);
    const header = /^Message-ID: (.+)$/im.exec(sentTo('priya+flow@landlord.test')[0]!.raw)?.[1]?.trim();
    expect(header).toBe(msg!.message_id);

    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after).toMatchObject({ status: 'waiting', waiting_on: 'Priya Shah', last_error: null });
    expect(after!.waiting_since).not.toBeNull();
    expect(after!.detail).toContain('Approved after reading it.');
    const shown = await itemOf(store.db, d.desk.id, row.id);
    expect(shown.has_draft).toBe(false);
    expect(shown.action?.type).toBe('wait');

    const kinds = (await eventsOf(store.db, d.desk.id)).filter((e) => e.data.work_id === row.id).map((e) => e.kind);
    expect(kinds).toEqual(['drafted', 'sent', 'completed']);
    expect((await timelineOf(store.db, d.desk.id, row.id)).map((t) => t.kind)).toEqual([
      'drafted',
      'sent',
      'completed',
    ]);
  });

  it('a chase sent with complete is threaded on the message it follows up, as a run threads one', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask for the boiler service date',
      class: 'reach_out',
      contact_name: 'Ola Heat',
      contact_email: 'ola+thread@heating.test',
    });
    await post(`/work/${row.id}/draft`);
    expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ status: 'waiting', delivered: true });
    const [first] = await messagesOf(store.db, d.desk.id, row.id);
    expect(sentTo('ola+thread@heating.test')[0]!.raw).not.toMatch(/^In-Reply-To:/im);

    // Out with Ola, a draft is a chase; sending it with complete threads it on the first message.
    expect((await post(`/work/${row.id}/draft`)).json().data).toMatchObject({ drafted: true });
    expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ status: 'waiting', delivered: true });
    const chase = sentTo('ola+thread@heating.test')[1]!.raw;
    expect(chase).toContain(`In-Reply-To: ${first!.message_id}`);
    expect(chase).toContain(`References: ${first!.message_id}`);

    // A second chase answers the first and names the whole conversation, oldest first.
    const second = (await messagesOf(store.db, d.desk.id, row.id)).find(
      (m) => m.message_id && m.message_id !== first!.message_id,
    )!;
    expect((await post(`/work/${row.id}/draft`)).json().data).toMatchObject({ drafted: true });
    expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ status: 'waiting', delivered: true });
    const again = sentTo('ola+thread@heating.test')[2]!.raw;
    expect(again).toContain(`In-Reply-To: ${second.message_id}`);
    expect(again).toMatch(/^References: (.*(?:\r?\n[ \t].*)*)/m);
    const refs = /^References: (.*(?:\r?\n[ \t].*)*)/m.exec(again)![1]!.split(/\s+/).filter(Boolean);
    expect(refs).toEqual([first!.message_id, second.message_id]);

    // Each is a chase, counted as one the desk sends on its own is: the first message is not.
    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after?.chases).toBe(2);
    const chased = (await timelineOf(store.db, d.desk.id, row.id)).filter((t) => t.kind === 'chased');
    expect(chased.map((t) => t.text)).toEqual([
      `Chase 1 of ${after!.max_chases} sent to Ola Heat; the desk chases again after ${after!.chase_after_days} days without an answer.`,
      `Chase 2 of ${after!.max_chases} sent to Ola Heat; the desk chases again after ${after!.chase_after_days} days without an answer.`,
    ]);
  });

  it('a chase a person sends past the desk\'s own number says so, rather than "1 of 0"', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask again about the deposit',
      class: 'reach_out',
      contact_name: 'Hal',
      contact_email: 'hal+past@deposit.test',
      status: 'waiting',
      waiting_on: 'Hal',
      max_chases: 0,
    });
    expect((await post(`/work/${row.id}/draft`)).json().data).toMatchObject({ drafted: true });
    expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ status: 'waiting', delivered: true });
    expect((await post(`/work/${row.id}/draft`)).json().data).toMatchObject({ drafted: true });
    expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ status: 'waiting', delivered: true });
    const chased = (await timelineOf(store.db, d.desk.id, row.id)).filter((t) => t.kind === 'chased');
    expect(chased.map((t) => t.text)).toEqual([
      'Chase 1 (the desk sends none on its own) sent to Hal; the next time it comes due, a person follows it up.',
      'Chase 2 (the desk sends none on its own) sent to Hal; the next time it comes due, a person follows it up.',
    ]);
  });

  it('a refusing mail server leaves the message approved and the row a fault; a fresh draft then sends and clears it', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Confirm the delivery slot',
      class: 'commit',
      contact_name: 'Dan',
      contact_email: 'dan+refuse@mill.test',
    });
    expect((await post(`/work/${row.id}/draft`)).json().data.drafted).toBe(true);
    smtp.setMode('refuse');
    try {
      const res = await post(`/work/${row.id}/complete`);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ id: row.id, status: 'open', failed: true, delivered: false });
      expect(data.delivery_note.length).toBeGreaterThan(0);
    } finally {
      smtp.setMode('accept');
    }
    const faulted = await itemOf(store.db, d.desk.id, row.id);
    expect(faulted.last_error).not.toBeNull();
    expect(faulted.action?.type).toBe('fix');
    expect(faulted.has_draft).toBe(false);
    const [failed] = await messagesOf(store.db, d.desk.id, row.id);
    expect(failed).toMatchObject({ status: 'approved', sent_at: null });
    expect(failed!.failure_reason).toBeTruthy();
    expect((await eventsOf(store.db, d.desk.id, 'send_failed')).some((e) => e.data.work_id === row.id)).toBe(true);
    expect(sentTo('dan+refuse@mill.test')).toHaveLength(0);

    // D13: draft writes a fresh message; a successful complete clears last_error.
    const redraft = await post(`/work/${row.id}/draft`);
    expect(redraft.json().data.drafted).toBe(true);
    expect(await messagesOf(store.db, d.desk.id, row.id)).toHaveLength(2);
    const ok = await post(`/work/${row.id}/complete`);
    expect(ok.json().data).toMatchObject({ status: 'done', failed: false, delivered: true, waiting_on: null });
    expect((await findWork(store.db, d.desk.id, row.id))!.last_error).toBeNull();
    expect(sentTo('dan+refuse@mill.test')).toHaveLength(1);
  });

  it('a contact address stored before lists were refused is sent to nobody, and said so, not to part of it', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask both partners',
      class: 'reach_out',
      contact_email: 'ann,bob@listed.test',
    });
    expect((await post(`/work/${row.id}/draft`)).json().data).toMatchObject({
      drafted: true,
      to: 'ann,bob@listed.test',
    });
    const res = await post(`/work/${row.id}/complete`);
    expect(res.json().data).toMatchObject({ failed: true, delivered: false });
    expect((await itemOf(store.db, d.desk.id, row.id)).last_error).toBe(
      'The message\'s address "ann,bob@listed.test" names more than one, so nothing was sent; give the row one contact address and prepare the message again.',
    );
    expect(sentTo('listed.test')).toEqual([]);
  });

  it('a message drafted with a subject over two lines goes, and is recorded, on one', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Two lines',
      class: 'reach_out',
      contact_email: 'two@lines.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { subject: 'Line one\r\nBcc: evil@x.test', to: 'two@lines.test' });
    const res = await post(`/work/${row.id}/complete`);
    expect(res.json().data).toMatchObject({ delivered: true });
    const [sent] = sentTo('two@lines.test');
    expect(`\r\n${sent!.raw}`).toContain('\r\nSubject: Line one Bcc: evil@x.test\r\n');
    expect(sent!.to).toEqual(['two@lines.test']);
    const [msg] = await messagesOf(store.db, d.desk.id, row.id);
    expect(msg).toMatchObject({ subject: 'Line one Bcc: evil@x.test', status: 'sent' });
  });

  it('a contact address stored before its marks were refused is sent to nobody, not to what the mailer reads of it', async () => {
    for (const address of ['a(b)c@marks.test', 'ann:bob@marks.test', '"x@marks.test']) {
      const row = await makeWork(store.db, d.desk.id, {
        title: 'Ask them',
        class: 'reach_out',
        contact_email: address,
      });
      expect((await post(`/work/${row.id}/draft`)).json().data).toMatchObject({ drafted: true, to: address });
      const res = await post(`/work/${row.id}/complete`);
      expect(res.json().data, address).toMatchObject({ failed: true, delivered: false });
      expect((await itemOf(store.db, d.desk.id, row.id)).last_error).toContain(
        'is not one the desk can send to as written, so nothing was sent',
      );
    }
    expect(sentTo('marks.test')).toEqual([]);
  });

  it('complete after a failed send, with nothing drafted again, says the message did not go as it records the work', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Pay the window cleaner',
      class: 'money',
      contact_name: 'Cleo',
      contact_email: 'cleo+retry@clear.test',
    });
    expect((await post(`/work/${row.id}/draft`)).json().data.drafted).toBe(true);
    smtp.setMode('refuse');
    try {
      expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ failed: true, delivered: false });
    } finally {
      smtp.setMode('accept');
    }
    // The caller retries with complete: per D13 that records the work, and it must say nothing went.
    const retried = (await post(`/work/${row.id}/complete`)).json().data;
    expect(retried).toEqual({
      id: row.id,
      status: 'done',
      waiting_on: null,
      failed: false,
      delivered: false,
      delivery_note:
        'Nothing was sent: the message that failed before is not sent again by complete (draft prepares it afresh); the work was recorded as done by hand.',
    });
    expect(sentTo('cleo+retry@clear.test')).toHaveLength(0);
  });

  it('a mail server that never answers counts as a failed send after the mail timeout', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'File the quarterly return',
      class: 'file',
      contact_email: 'hang@tax.test',
    });
    await post(`/work/${row.id}/draft`);
    smtp.setMode('hang');
    try {
      const res = await post(`/work/${row.id}/complete`);
      expect(res.json().data).toMatchObject({ status: 'open', failed: true, delivered: false });
    } finally {
      smtp.setMode('accept');
    }
    const [msg] = await messagesOf(store.db, d.desk.id, row.id);
    expect(msg!.status).toBe('approved');
    // The server may have taken the message before it stopped answering: that is said, so the
    // owner looks before sending it again.
    expect((await findWork(store.db, d.desk.id, row.id))!.last_error).toMatch(/whether the message went is not known/);
    const failedLine = (await timelineOf(store.db, d.desk.id, row.id)).find((t) => t.kind === 'send_failed');
    expect(failedLine?.text).toBe(
      `api approved "${msg!.subject}", but it is not known to have been sent: ${(await findWork(store.db, d.desk.id, row.id))!.last_error}`,
    );
  });

  it('a draft asked for while another call is sending declines, so the message cannot go twice', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask for the signed lease',
      class: 'reach_out',
      contact_email: 'inflight@landlord.test',
    });
    await post(`/work/${row.id}/draft`);
    smtp.setMode('hang');
    try {
      const sending = post(`/work/${row.id}/complete`);
      await expect.poll(async () => (await messagesOf(store.db, d.desk.id, row.id))[0]?.status).toBe('approved');
      const res = await post(`/work/${row.id}/draft`);
      expect(res.json().data).toEqual({ drafted: false, reason: SENDING });
      expect((await itemOf(store.db, d.desk.id, row.id)).has_draft).toBe(false);
      expect((await sending).json().data).toMatchObject({ failed: true });
    } finally {
      smtp.setMode('accept');
    }
    expect(await messagesOf(store.db, d.desk.id, row.id)).toHaveLength(1);
    // Once that send has ended the desk drafts again, as D13 asks after a failed send.
    expect((await post(`/work/${row.id}/draft`)).json().data.drafted).toBe(true);
  });

  it('after a failed send, a draft is the failed message again, with the edits it was approved with', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask for the keys back',
      class: 'reach_out',
      contact_email: 'keys@landlord.test',
    });
    await post(`/work/${row.id}/draft`);
    // The owner reworded it before approving (as the screen's approve form does).
    await store.db
      .updateTable('activity')
      .set({ subject: 'The keys, please', body: 'Could you send the keys back this week?' })
      .where('obligation_id', '=', row.id)
      .execute();
    smtp.setMode('refuse');
    try {
      expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ failed: true });
    } finally {
      smtp.setMode('accept');
    }
    const again = (await post(`/work/${row.id}/draft`)).json().data;
    expect(again).toEqual({
      drafted: true,
      channel: 'email',
      subject: 'The keys, please',
      body: 'Could you send the keys back this week?',
      to: 'keys@landlord.test',
    });
    expect((await post(`/work/${row.id}/complete`)).json().data).toMatchObject({ delivered: true, failed: false });
    expect(sentTo('keys@landlord.test').map((m) => m.raw)).toEqual([expect.stringContaining('The keys, please')]);
  });

  it('with no mailbox connected nothing leaves: approved with the reason, failed, last_error set', async () => {
    const other = await makeDesk(store.db);
    await connectMailbox(store.db, other.desk.id, smtp.port, 'error');
    const row = await makeWork(store.db, other.desk.id, {
      title: 'Say hello',
      class: 'reach_out',
      contact_email: 'nobox@example.test',
    });
    const call = (p: string) => h.call('POST', `/api/v1${p}`, { key: other.key, body: {} });
    await call(`/work/${row.id}/draft`);
    const res = await call(`/work/${row.id}/complete`);
    expect(res.json().data).toMatchObject({ status: 'open', failed: true, delivered: false });
    expect(res.json().data.delivery_note).toMatch(/No mailbox is connected/);
    const after = await findWork(store.db, other.desk.id, row.id);
    expect(after!.last_error).toMatch(/No mailbox is connected/);
    expect(after!.waiting_on).toBeNull();
    expect((await messagesOf(store.db, other.desk.id, row.id))[0]).toMatchObject({ status: 'approved' });
    expect(sentTo('nobox@example.test')).toHaveLength(0);
  });

  it('two concurrent completes send the message once', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Chase the invoice copy',
      class: 'chase',
      contact_name: 'Ana',
      contact_email: 'ana+race@supplier.test',
    });
    await post(`/work/${row.id}/draft`);
    const answers = await Promise.all([
      post(`/work/${row.id}/complete`),
      post(`/work/${row.id}/complete`),
      post(`/work/${row.id}/complete`),
    ]);
    for (const a of answers) expect(a.statusCode).toBe(200);
    expect(answers.filter((a) => a.json().data.delivered === true)).toHaveLength(1);
    expect(answers.every((a) => a.json().data.failed === false)).toBe(true);
    expect(sentTo('ana+race@supplier.test')).toHaveLength(1);
    expect((await messagesOf(store.db, d.desk.id, row.id)).map((m) => m.status)).toEqual(['sent']);
    expect((await findWork(store.db, d.desk.id, row.id))!.status).toBe('waiting');
  });

  it('of many concurrent completes on a row with no draft, one records the work and the others say it was done', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Lock the back door' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(`/work/${row.id}/complete`)));
    const notes = answers.map((a) => a.json().data.delivery_note as string);
    expect(
      notes.filter((n) => n === 'There was no prepared message; the work was recorded as done by hand.'),
    ).toHaveLength(1);
    expect(notes.filter((n) => n === 'This row is already done; nothing was changed.')).toHaveLength(9);
    const completed = await store.db
      .selectFrom('events')
      .select('id')
      .where('kind', '=', 'completed')
      .where('data', 'like', `%"work_id":${row.id},%`)
      .execute();
    expect(completed).toHaveLength(1);
  });

  it('complete with no draft records the work as done and appends the note; on a finished row it changes nothing', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Sweep the yard', detail: 'Weekly.' });
    const openBefore = (
      await store.db.selectFrom('desks').select('open_count').where('id', '=', d.desk.id).executeTakeFirstOrThrow()
    ).open_count;
    const res = await post(`/work/${row.id}/complete`, { note: '  Done by Sam.  ', actor: 'Sam' });
    expect(res.json().data).toMatchObject({
      id: row.id,
      status: 'done',
      waiting_on: null,
      failed: false,
      delivered: false,
    });
    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after!.detail).toBe('Weekly.\n\nDone by Sam.');
    expect(after!.closed_at).not.toBeNull();
    const openAfter = (
      await store.db.selectFrom('desks').select('open_count').where('id', '=', d.desk.id).executeTakeFirstOrThrow()
    ).open_count;
    expect(Number(openAfter)).toBe(Number(openBefore) - 1);
    const completed = (await eventsOf(store.db, d.desk.id, 'completed')).find((e) => e.data.work_id === row.id);
    expect(completed!.data.actor).toBe('Sam');

    const again = await post(`/work/${row.id}/complete`, { note: 'Twice' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ status: 'done', failed: false, delivered: false });
    expect(again.json().data.delivery_note).toMatch(/already done/);
    expect((await findWork(store.db, d.desk.id, row.id))!.detail).toBe('Weekly.\n\nDone by Sam.');
  });

  it('a key may not say the owner or the desk did the work, on a row or an arrangement note', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Sign for the parcel', detail: 'At the door.' });
    const arrangement = await makeArrangement(store.db, d.desk.id, 'Parcels');
    // As a person reads them: with a character that draws nothing, full-width, or with letters of
    // other scripts drawn as the names' own (Cyrillic o and capital S, Greek kappa).
    const unseen = ['owner\u200B', '\u00A0owner', 'ow\u2066ner', 'de\u00ADsk'];
    const lookalike = [
      '\uFF4F\uFF57\uFF4E\uFF45\uFF52',
      '\u043Ewner',
      'DE\u0405K',
      'des\u03BA',
      'OW\u039DER', // Greek capital Nu and Epsilon, which lower-case to letters unlike n and e
      'D\u0395SK',
      '\u2C9Fwner', // Coptic o
      '\u13A0ESK', // Cherokee D, and its small letter
      '\uAB70esk',
      'o\uAB83ner',
    ];
    for (const actor of ['owner', ' Owner ', 'DESK', ...unseen, ...lookalike]) {
      const res = await post(`/work/${row.id}/complete`, { note: 'Approved.', actor });
      expect(res.statusCode, actor).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'bad_request', details: { field: 'actor' } });
      expect(res.json().error.message).toMatch(/^actor may not be ".+": "owner" and "desk" name/);
      const note = await post(`/arrangements/${arrangement.id}/notes`, { body: 'I approve.', actor });
      expect(note.statusCode, actor).toBe(400);
      expect(note.json().error.details).toEqual({ field: 'actor' });
    }
    // The refusal repeats the name with what it holds written out, and no more of it than a refusal repeats.
    const escaped = await post(`/work/${row.id}/complete`, { actor: `owner\u001b${'\u200B'.repeat(300)}` });
    expect(escaped.json().error.message).toMatch(/^actor may not be "owner\\u001b\u200B+…": /);
    expect(escaped.json().error.message.length).toBeLessThan(200);
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'open', detail: 'At the door.' });
    expect((await eventsOf(store.db, d.desk.id, 'completed')).filter((e) => e.data.work_id === row.id)).toEqual([]);
    // Any other name is the caller's to give, in any script.
    for (const actor of [
      '\u041E\u043B\u044C\u0433\u0430',
      '\u0394\u03AD\u03C3\u03C0\u03BF\u03B9\u03BD\u03B1',
      'd\u00E9sk clerk',
    ])
      expect((await post(`/arrangements/${arrangement.id}/notes`, { body: 'Seen.', actor })).statusCode, actor).toBe(
        200,
      );
    expect((await post(`/work/${row.id}/complete`, { actor: 'Owner Sam' })).json().data.status).toBe('done');
  });

  it('an actor of nothing that can be seen is the caller, as one left out', async () => {
    const arrangement = await makeArrangement(store.db, d.desk.id, 'Shop lease');
    for (const actor of ['', '   ', '\u200B', '\u200B\u2060 \uFEFF', '\u2800', '\u0301']) {
      const note = await post(`/arrangements/${arrangement.id}/notes`, { body: 'Seen.', actor });
      expect(note.statusCode, JSON.stringify(actor)).toBe(200);
      expect(note.json().data.actor, JSON.stringify(actor)).toBe('api');
    }
    const row = await makeWork(store.db, d.desk.id, { title: 'Sweep the yard' });
    expect((await post(`/work/${row.id}/complete`, { actor: '\u200B\u200D' })).statusCode).toBe(200);
    const completed = (await eventsOf(store.db, d.desk.id, 'completed')).find((e) => e.data.work_id === row.id);
    expect(completed!.data.actor).toBe('api');
  });

  it("complete keeps 4,000 characters of a note and 200 of an actor, as an arrangement's note does", async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Count the till' });
    const note = `${'n'.repeat(3999)}😀 and more`;
    const res = await post(`/work/${row.id}/complete`, { note, actor: ` ${'A'.repeat(199)}😀${'B'.repeat(50)} ` });
    expect(res.statusCode).toBe(200);
    expect((await findWork(store.db, d.desk.id, row.id))!.detail).toBe(`${'n'.repeat(3999)}😀`);
    const completed = (await eventsOf(store.db, d.desk.id, 'completed')).find((e) => e.data.work_id === row.id);
    expect(completed!.data.actor).toBe(`${'A'.repeat(199)}😀`);
  });

  it('complete on a row out with somebody and no draft keeps it waiting', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Quote from the plumber',
      status: 'open',
      waiting_on: 'Joe',
      waiting_since: '2026-11-20T09:00:00.000Z',
    });
    const res = await post(`/work/${row.id}/complete`);
    expect(res.json().data).toMatchObject({
      status: 'waiting',
      waiting_on: 'Joe',
      delivered: false,
      failed: false,
      delivery_note: 'There was no prepared message; this step was recorded as done by hand.',
    });
  });

  it('complete refuses bodies it cannot read and unknown ids, writing nothing', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Untouched' });
    const eventsBefore = (await eventsOf(store.db, d.desk.id)).length;
    for (const body of [{ note: 5 }, { actor: true }, [1, 2], 'text']) {
      const res = await post(`/work/${row.id}/complete`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
    const notJson = await h.call('POST', `/api/v1/work/${row.id}/complete`, {
      key: d.key,
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    for (const id of ['999999', 'abc', '0']) {
      const res = await post(`/work/${id}/complete`, {});
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toContain('work item');
    }
    expect((await findWork(store.db, d.desk.id, row.id))!.status).toBe('open');
    expect((await eventsOf(store.db, d.desk.id)).length).toBe(eventsBefore);
  });

  it('an unknown body field is refused, and the row is left as it was', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Extra fields' });
    const res = await post(`/work/${row.id}/complete`, { note: 'ok', colour: 'blue' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('"colour" is not a field of this request; it takes "note", "actor".');
    expect((await itemOf(store.db, d.desk.id, row.id)).status).toBe('open');
  });

  it('draft declines, as a 200 with a reason, when nobody can be written to or the row is finished', async () => {
    const nobody = await makeWork(store.db, d.desk.id, { title: 'Nobody named', contact_name: 'Someone' });
    const res = await post(`/work/${nobody.id}/draft`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.drafted).toBe(false);
    expect(res.json().data.reason).toMatch(/who it goes to/);
    // A row done by its playbook, whose class is not granted: prepare (D10), and the draft says how it gets done.
    const pb = await makePlaybook(store.db, d.desk.id, 'file-the-return', [], null);
    const filed = await makeWork(store.db, d.desk.id, { title: 'File the return', class: 'file', playbook_id: pb.id });
    expect((await itemOf(store.db, d.desk.id, filed.id)).action).toMatchObject({ type: 'prepare' });
    expect((await post(`/work/${filed.id}/draft`)).json().data).toEqual({
      drafted: false,
      reason:
        'Nobody on this row can be written to; it is done by following its playbook, which the desk may run once "file" is granted.',
    });
    // Once "file" is granted, the same row is the desk's to run, and the reason says so.
    await setGrant(store.db, { deskId: d.desk.id, cls: 'file', granted: true, now: TEST_NOW, by: 'test' });
    try {
      expect((await itemOf(store.db, d.desk.id, filed.id)).action).toMatchObject({ type: 'run' });
      expect((await post(`/work/${filed.id}/draft`)).json().data).toEqual({
        drafted: false,
        reason:
          'Nobody on this row can be written to; it is done by following its playbook, which the desk may run now ("file" is granted): run it instead.',
      });
    } finally {
      await setGrant(store.db, { deskId: d.desk.id, cls: 'file', granted: false, now: TEST_NOW, by: 'test' });
    }
    const finished = await makeWork(store.db, d.desk.id, {
      title: 'Finished',
      status: 'closed',
      contact_email: 'x@y.test',
    });
    const closed = await post(`/work/${finished.id}/draft`);
    expect(closed.json().data).toMatchObject({ drafted: false });
    expect(await messagesOf(store.db, d.desk.id, nobody.id)).toHaveLength(0);
    expect(await messagesOf(store.db, d.desk.id, finished.id)).toHaveLength(0);
    const declined = (await eventsOf(store.db, d.desk.id, 'draft_declined')).map((e) => e.data.work_id);
    expect(declined).toEqual(expect.arrayContaining([nobody.id, finished.id]));
    expect((await post('/work/424242/draft')).statusCode).toBe(404);
  });

  it('concurrent drafts on one row leave one prepared message, and all answers show it', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Book the chimney sweep',
      class: 'commit',
      contact_email: 'sweep@chimney.test',
    });
    const answers = await Promise.all([1, 2, 3].map(() => post(`/work/${row.id}/draft`)));
    const bodies = answers.map((a) => a.json().data);
    expect(bodies[0].drafted).toBe(true);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    expect(await messagesOf(store.db, d.desk.id, row.id)).toHaveLength(1);
  });

  it("a draft quotes the newest notes on the row's arrangement", async () => {
    const arr = await makeArrangement(store.db, d.desk.id, 'Flour supply');
    await h.call('POST', `/api/v1/arrangements/${arr.id}/notes`, {
      key: d.key,
      body: { body: 'They prefer calls before noon.' },
    });
    const row = await makeWork(store.db, d.desk.id, {
      title: "Agree next year's price",
      class: 'commit',
      contact_email: 'mill@flour.test',
      arrangement_id: arr.id,
    });
    const res = await post(`/work/${row.id}/draft`);
    expect(res.json().data.body).toContain('They prefer calls before noon.');
    expect(res.json().data.body).toContain('Flour supply');
  });

  it('snooze moves the date from the existing one, drops priority by 5, leaves status, and logs it', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Service the oven',
      due_date: '2026-11-25',
      priority: 40,
      status: 'waiting',
      waiting_on: 'Tech',
    });
    const res = await post(`/work/${row.id}/snooze`, { days: 10 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: row.id,
      title: 'Service the oven',
      kind: 'general',
      status: 'waiting',
      due_date: '2026-12-05',
      priority: 35,
    });
    const ev = (await eventsOf(store.db, d.desk.id, 'snoozed')).find((e) => e.data.work_id === row.id);
    expect(ev!.data).toMatchObject({ days: 10, due_date: '2026-12-05' });
    expect((await timelineOf(store.db, d.desk.id, row.id)).map((t) => t.kind)).toEqual(['snoozed']);
    expect(await messagesOf(store.db, d.desk.id, row.id)).toHaveLength(0);
  });

  it('snooze reaches 9999-12-31 and refuses to pass it, changing nothing', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Renew the far lease', due_date: '9999-12-29' });
    const res = await post(`/work/${row.id}/snooze`, { days: 2 });
    expect(res.json().data.due_date).toBe('9999-12-31');
    const past = await post(`/work/${row.id}/snooze`, { days: 1 });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toEqual({
      code: 'bad_request',
      message:
        'Snoozing 1 day from 9999-12-31 would pass 9999-12-31, the last date a row can be due; nothing was changed.',
    });
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ due_date: '9999-12-31' });
    const snoozes = (await eventsOf(store.db, d.desk.id, 'snoozed')).filter((e) => e.data.work_id === row.id);
    expect(snoozes).toHaveLength(1);
  });

  it('snooze defaults to 3 days counted from today when there is no date, and floors priority at 1', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'No date', due_date: null, priority: 3 });
    const res = await post(`/work/${row.id}/snooze`);
    expect(res.json().data).toMatchObject({ due_date: '2026-11-25', priority: 1 });
    const twice = await post(`/work/${row.id}/snooze`, {});
    expect(twice.json().data).toMatchObject({ due_date: '2026-11-28', priority: 1 });
  });

  it('snooze enforces days as an integer 1-365 with a 400 and changes nothing', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Keep still', due_date: '2026-12-10', priority: 50 });
    for (const days of [0, 366, 2.5, '3', -1, null, true]) {
      const res = await post(`/work/${row.id}/snooze`, { days });
      expect(res.statusCode, `days=${JSON.stringify(days)}`).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
      expect(res.json().error.message).toMatch(/days must be .*between 1 and 365/);
    }
    expect((await post(`/work/${row.id}/snooze`, { days: 365 })).json().data.due_date).toBe('2027-12-10');
    expect((await post(`/work/${row.id}/snooze`, { days: 1 })).json().data.due_date).toBe('2027-12-11');
    expect((await eventsOf(store.db, d.desk.id, 'snoozed')).filter((e) => e.data.work_id === row.id)).toHaveLength(2);
    expect((await post('/work/777777/snooze', { days: 2 })).statusCode).toBe(404);
  });

  it('quotes no more than the start of a huge field name it refuses', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Keep the quote short' });
    const huge = 'a'.repeat(100_000);
    const res = await post(`/work/${row.id}/snooze`, { [huge]: 1 });
    expect(res.statusCode).toBe(400);
    const { message, details } = res.json().error;
    expect(message).toBe(`"${'a'.repeat(60)}…" is not a field of this request; it takes "days".`);
    expect(message.length).toBeLessThan(500);
    expect(details.field).toBe(`${'a'.repeat(60)}…`);
    expect(res.body.length).toBeLessThan(500);
  });
});
