import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { refuse } from '../helpers/refuse.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type SmtpMode } from '../helpers/smtp.ts';
import { dovecotMissing, startDovecot, type TestImap } from '../helpers/dovecot.ts';
import { bounceMail, rawMail, type RawMail } from '../helpers/mail.ts';
import { addConnection } from '../helpers/business.ts';
import { type Socket, connect, createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type MailPassReport, runMailPass } from '../../src/app/mail/pass.ts';
import { runWorkPass } from '../../src/app/work/pass.ts';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { racePasses } from '../helpers/racers.ts';
import { createSignInLink } from '../../src/domain/owner/sign-in.ts';
import { signInWithLink } from '../helpers/sign-in.ts';
import { deskContext } from '../../src/domain/context.ts';
import { assignWork } from '../../src/domain/work/assign.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { setGrant } from '../../src/domain/grants/manage.ts';
import { dateOfInstant } from '../../src/domain/dates.ts';
import { ImapReader } from '../../src/adapters/imap/reader.ts';
import type { MailboxSettings, ReadLimits, ReadPosition } from '../../src/domain/ports.ts';
import { STUCK_PASSES, STUCK_SPACING_MS } from '../../src/domain/mail/read.ts';
import { findWork, moveWork } from '../../src/store/repositories/work.ts';
import { changeConnection, connectionById, noteSendFault } from '../../src/store/repositories/connections.ts';

// The desk hears back, against a real Dovecot for what comes in and the real SMTP test server
// for what goes out. Every date is derived from the pinned test clock.

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
const missing = dovecotMissing();
const MAILBOX = 'Replies';
const now = new Date(TEST_NOW);
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

describe.skipIf(missing !== null).each(DIALECTS)('reading replies from the mailbox ($name)', ({ name, open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: Smtp;
  let imap: TestImap;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  const get = (path: string) => h.call('GET', `/api/v1${path}`, { key: d.key });
  const pass = (harnessed: Harness = h) => runMailPass(harnessed.deps, { desk: d.desk.slug });
  /** A pass far enough after the last to count as another stop at a message no pass can handle. */
  const laterPass = () => {
    h.clock.advance(STUCK_SPACING_MS);
    return pass();
  };
  // A reply reaches the mailbox when the clock stands, just after the desk's message went.
  const put = (raw: string) => imap.append(raw, { mailbox: MAILBOX, at: now });

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'accept' });
    imap = await startDovecot();
    h = await harness(store, { config: { mailTimeoutMs: 3000 } });
    d = await makeDesk(store.db, { name: 'Corner Bakery Ltd' });
    await addConnection(store.db, d.desk.id, {
      name: 'Office mail',
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        starttls: false,
        user: 'desk',
        pass: 'smtp-secret',
        from: 'Corner Bakery <desk@bakery.test>',
        imap: { host: imap.host, port: imap.port, secure: false, user: imap.user, pass: imap.pass, mailbox: MAILBOX },
      },
    });
    // The mailbox exists before the first pass, as a real one would.
    await imap.append(rawMail({ from: 'news@elsewhere.test', subject: 'Welcome', date: hoursAgo(48), text: 'hi' }), {
      mailbox: MAILBOX,
      at: hoursAgo(48),
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await imap?.stop();
    await store?.close();
  });

  /**
   * A row whose message really went out and now waits on Sam (or, with no class, is done);
   * its subject and Message-ID.
   */
  async function sentRow(title: string, email = 'sam@ovens.test', cls: string | null = 'reach_out') {
    const row = await makeWork(store.db, d.desk.id, {
      title,
      class: cls,
      contact_name: 'Sam Oven',
      contact_email: email,
    });
    await makeDraft(store.db, d.desk.id, row.id, { subject: `About: ${title}`, body: 'Could you quote?', to: email });
    const done = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key, body: {} });
    expect(done.json().data).toMatchObject({ status: cls === null ? 'done' : 'waiting', delivered: true });
    const sent = await store.db
      .selectFrom('activity')
      .select(['message_id', 'subject'])
      .where('obligation_id', '=', row.id)
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    expect(sent.message_id).toMatch(/^<.+@bakery\.test>$/);
    return { id: row.id, subject: sent.subject as string, messageId: sent.message_id as string };
  }

  /** A row whose message's send failed as a mail server in `mode` makes it fail (`drop`: it took the text, then hung up). */
  async function failedRow(title: string, email: string, mode: SmtpMode) {
    const row = await makeWork(store.db, d.desk.id, {
      title,
      class: 'reach_out',
      contact_name: 'Sam Oven',
      contact_email: email,
    });
    await makeDraft(store.db, d.desk.id, row.id, { subject: `About: ${title}`, body: 'Quote?', to: email });
    smtp.setMode(mode);
    try {
      const done = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key, body: {} });
      expect(done.json().data).toMatchObject({ failed: true, delivered: false });
    } finally {
      smtp.setMode('accept');
    }
    return row;
  }

  const grantReachOut = (granted: boolean) =>
    setGrant(store.db, { deskId: d.desk.id, cls: 'reach_out', granted, now: h.clock.now().toISOString(), by: 'owner' });

  /** Sam's reply to a sent row, an hour ago unless said, threaded by In-Reply-To. */
  const samReplies = (row: { subject: string; messageId: string }, text: string, over: Partial<RawMail> = {}) =>
    rawMail({
      from: 'Sam Oven <sam@ovens.test>',
      subject: `Re: ${row.subject}`,
      date: hoursAgo(1),
      inReplyTo: row.messageId,
      text,
      ...over,
    });

  /** A loopback proxy in front of Dovecot that cuts the connection at the client's command `cuts` picks. */
  async function cuttingProxy(cuts: (command: string) => boolean) {
    const sockets = new Set<Socket>();
    const proxy: Server = createServer((client) => {
      const upstream = connect(imap.port, '127.0.0.1');
      sockets.add(client).add(upstream);
      client.on('data', (chunk) => {
        if (cuts(chunk.toString())) {
          client.destroy();
          upstream.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => client.write(chunk));
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    return {
      port: (proxy.address() as AddressInfo).port,
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => proxy.close(() => resolve()));
      },
    };
  }

  /** A mail connection for the desk whose replies are read through `port` (a proxy in front of Dovecot). */
  const readVia = (deskId: string, name: string, port: number, mailbox: string) =>
    addConnection(store.db, deskId, {
      name,
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        starttls: false,
        imap: { host: '127.0.0.1', port, secure: false, user: imap.user, pass: imap.pass, mailbox },
      },
    });

  async function footprint() {
    const count = async (t: 'activity' | 'timeline' | 'events') =>
      Number(
        (
          await store.db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('desk_id', '=', d.desk.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { activity: await count('activity'), timeline: await count('timeline'), events: await count('events') };
  }

  it('a threaded reply ends the wait, is kept as text and shows on GET /work/{id}', async () => {
    const row = await sentRow('Oven repair quote');
    await put(
      samReplies(row, 'Quote attached: 240 GBP. <script>alert(1)</script>', {
        date: hoursAgo(2),
        references: row.messageId,
        attachment: { name: 'quote.pdf', bytes: 3000 },
      }),
    );
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ status: 'read', error: null, replies: 1 });
    expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply', from: 'Sam Oven' })]);

    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'open', waiting_on: null, days_waiting: null });
    expect(detail.work.action.type).toBe('own');
    // The reply's date on the desk's own calendar.
    const repliedOn = dateOfInstant(d.desk.timezone, hoursAgo(2).toISOString());
    expect(detail.work.action.hint).toContain(`Sam Oven replied on ${repliedOn}`);
    const reply = detail.messages.find((m: { direction: string }) => m.direction === 'inbound');
    expect(reply).toMatchObject({
      status: 'received',
      actor: 'Sam Oven',
      sent_at: hoursAgo(2).toISOString(),
      attachments: [{ name: 'quote.pdf', size: 3000 }],
    });
    expect(reply.body).toBe('Quote attached: 240 GBP. <script>alert(1)</script>');
    expect(detail.timeline.map((t: { text: string }) => t.text)).toContain('Sam Oven replied.');
    const events = (await get('/events?limit=5')).json().data.items;
    expect(events.some((e: { kind: string }) => e.kind === 'replied')).toBe(true);

    // The owner's screen: the reply as text under its sender, and the desk page counts it.
    const { token } = await createSignInLink(store.db, d.desk.id, h.clock.now());
    const cookie = Object.entries(await signInWithLink(h.app, token))
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const rowPage = await h.app.inject({ method: 'GET', url: `/work/${row.id}`, headers: { cookie } });
    expect(rowPage.statusCode).toBe(200);
    expect(rowPage.body).toContain('From Sam Oven');
    expect(rowPage.body).toContain('Quote attached: 240 GBP. &lt;script>alert(1)&lt;/script>');
    expect(rowPage.body).not.toContain('<script>alert(1)');
    expect(rowPage.body).toContain('quote.pdf (3 KB)');
    const deskPage = await h.app.inject({ method: 'GET', url: '/', headers: { cookie } });
    expect(deskPage.body).toMatch(/<span class="count">1<\/span> reply to read/);

    // No chase goes out to somebody who has replied: the row asks for a person, not a nudge.
    expect((await get('/work')).json().data.items.find((i: { id: number }) => i.id === row.id).action.type).toBe('own');
  });

  it("the desk's answer to a reply keeps its subject, thanks them, and is threaded on the reply", async () => {
    const row = await sentRow('Flour delivery days');
    const theirs = '<sam-answer-1@ovens.test>';
    await put(samReplies(row, 'Tuesdays and Fridays.', { messageId: theirs, references: row.messageId }));
    await pass();
    const drafted = await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: d.key, body: {} });
    expect(drafted.json().data).toMatchObject({ drafted: true, subject: `Re: ${row.subject}` });
    expect(drafted.json().data.body).toBe(
      `Hello Sam Oven,\n\nThank you for your reply about the following: Flour delivery days.\n\nKind regards,\n${d.desk.name}`,
    );

    const done = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key, body: {} });
    // The answer asks nothing: the row is done, and nobody waits on Sam, so no chase follows.
    expect(done.json().data).toMatchObject({ delivered: true, status: 'done', waiting_on: null });
    const raw = smtp.received.at(-1)!.raw;
    expect(raw).toContain(`In-Reply-To: ${theirs}`);
    expect(raw).toMatch(new RegExp(`References: ${row.messageId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+${theirs}`));
    expect(raw).toContain(`Subject: Re: ${row.subject}`);
  });

  it("the answer to a colleague's reply thanks the colleague by name, not the contact", async () => {
    const row = await sentRow('Flour price list');
    await put(samReplies(row, 'Sam is away; the list is attached.', { from: 'Jo Baker <jo@ovens.test>' }));
    await pass();
    const drafted = await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: d.key, body: {} });
    expect(drafted.json().data.body).toBe(
      `Hello Sam Oven,\n\nThank you for the reply from Jo Baker about the following: Flour price list.\n\nKind regards,\n${d.desk.name}`,
    );
  });

  it.each([
    ['under another name from their own address', 'Flour rye price', 'Samuel Oven <SAM@ovens.test>'],
    ['from another address of theirs, under their own name', 'Flour spelt price', 'Sam Oven <sam.oven@home.test>'],
  ])('the contact writing %s is thanked for their reply', async (_, title, from) => {
    const row = await sentRow(title);
    await put(samReplies(row, 'Here is the price.', { from }));
    await pass();
    const drafted = await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: d.key, body: {} });
    expect(drafted.json().data.body).toMatch(
      new RegExp(`^Hello Sam Oven,\n\nThank you for your reply about the following: ${title}\\.`),
    );
  });

  it('the answer to a reply ends the row even when it was said again to wait on someone', async () => {
    const row = await sentRow('Flour invoice copy');
    await put(samReplies(row, 'Attached.'));
    await pass();
    const owner = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' });
    await editWork(owner, row.id, { waiting_on: 'Sam Oven' });
    await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: d.key, body: {} });
    const done = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key, body: {} });
    expect(done.json().data).toMatchObject({ delivered: true, status: 'done', waiting_on: null });
    const stored = await store.db
      .selectFrom('work')
      .select(['waiting_on', 'waiting_since', 'status'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ waiting_on: null, waiting_since: null, status: 'done' });
  });

  it('a run on a row holding a reply does nothing: a person reads it first', async () => {
    const row = await sentRow('Oven door seal');
    await put(samReplies(row, 'Which model is it?'));
    await pass();
    const sent = smtp.received.length;
    // Granted, so only the reply stands between the run and a send.
    await grantReachOut(true);
    const ran = await h
      .call('POST', `/api/v1/work/${row.id}/run`, { key: d.key, body: {} })
      .finally(() => grantReachOut(false));
    expect(ran.statusCode).toBe(200);
    expect(ran.json().data).toMatchObject({ ok: false, closed: false, needs: 'A person to read the reply.' });
    expect(ran.json().data.outcome).toBe('"Oven door seal" needs a person; the desk did not act.');
    expect(smtp.received.length).toBe(sent);
    expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({
      status: 'open',
      action: { type: 'own', label: 'Read the reply' },
    });
  });

  it('a reply stays on a row given to a person and handed back, so the desk never writes first again', async () => {
    const reply = async (row: { subject: string; messageId: string }) => {
      await put(samReplies(row, 'Ok.'));
      await pass();
    };
    const owner = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' });
    const taken = await sentRow('Mixer service');
    await reply(taken);
    expect((await get(`/work/${taken.id}`)).json().data.work.action.label).toBe('Read the reply');
    const replied = `Sam Oven replied on ${dateOfInstant(d.desk.timezone, now.toISOString())}`;
    await assignWork(owner, taken.id, 'Ana');
    expect((await get(`/work/${taken.id}`)).json().data.work.action).toMatchObject({
      type: 'own',
      label: 'Check with Ana',
      hint: expect.stringContaining(`It is with Ana; ${replied}.`),
    });
    await assignWork(owner, taken.id, null);
    expect((await get(`/work/${taken.id}`)).json().data.work.action).toMatchObject({
      type: 'own',
      label: 'Read the reply',
      hint: expect.stringContaining(replied),
    });
    // Handed back with leave to write, the desk still sends nothing to whoever replied.
    const sent = smtp.received.length;
    await grantReachOut(true);
    const rails = await writeRails(store.db, d.desk.id, {});
    await writeRails(store.db, d.desk.id, { hours: 'always', paused: false });
    try {
      const ran = await runWorkPass(h.deps, { desk: d.desk.slug });
      expect(ran.desks[0]).toMatchObject({ state: 'acted', acts: [] });
    } finally {
      await grantReachOut(false);
      await writeRails(store.db, d.desk.id, rails);
    }
    expect(smtp.received.length).toBe(sent);

    const finished = await sentRow('Mixer parts');
    await reply(finished);
    const done = await h.call('POST', `/api/v1/work/${finished.id}/complete`, { key: d.key, body: {} });
    expect(done.json().data).toMatchObject({ status: 'done' });
    const stored = await store.db
      .selectFrom('work')
      .select(['replied_by', 'replied_at'])
      .where('id', '=', finished.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ replied_by: null, replied_at: null });
  });

  it('a reply read while a chase is on its way stays to be read, and nobody is put back to waiting', async () => {
    const row = await sentRow('Flour delivery days');
    await makeDraft(store.db, d.desk.id, row.id, {
      subject: `Re: ${row.subject}`,
      body: 'Just checking in on this.',
      to: 'sam@ovens.test',
    });
    await grantReachOut(true);
    smtp.setMode('slow');
    try {
      const before = smtp.received.length;
      const running = h.call('POST', `/api/v1/work/${row.id}/run`, { key: d.key, body: {} });
      // The server has the chase and has not yet answered: Sam's reply is read now.
      await expect.poll(() => smtp.received.length, { timeout: 5_000, interval: 20 }).toBe(before + 1);
      await put(samReplies(row, 'Tuesdays and Fridays.'));
      const read = await pass();
      expect(read.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
      const ran = (await running).json().data;
      expect(ran).toMatchObject({ ok: true, closed: false, waiting: null });
      expect(ran.outcome).toContain('Sam Oven replied meanwhile');

      const detail = (await get(`/work/${row.id}`)).json().data;
      expect(detail.work).toMatchObject({ status: 'open', waiting_on: null });
      expect(detail.work.action.label).toBe('Read the reply');
      const texts = detail.timeline.map((t: { text: string }) => t.text);
      expect(texts.indexOf('Sam Oven replied.')).toBeGreaterThanOrEqual(0);
      expect(texts.some((t: string) => t.includes('it was sent to'))).toBe(true);
      // The chase's own line promises no next chase to somebody who has answered.
      expect(texts.find((t: string) => t.startsWith('Chase 1 of'))).toMatch(
        /^Chase 1 of \d+ sent to Sam Oven; Sam Oven replied meanwhile, so no further chase goes\.$/,
      );
    } finally {
      smtp.setMode('accept');
      await grantReachOut(false);
    }
  });

  it('a reply threaded on a message whose send got no answer shows it went: the message is sent and the row reads the reply', async () => {
    const before = smtp.received.length;
    const row = await failedRow('Oven door seal', 'sam@ovens.test', 'drop');
    // The server took the message and closed the connection before it answered.
    expect(smtp.received.length).toBe(before + 1);
    const id = /^Message-ID: (.+)$/im.exec(smtp.received.at(-1)!.raw)![1]!.trim();
    const failed = (await get(`/work/${row.id}`)).json().data;
    expect(failed.work.action.type).toBe('fix');

    await put(samReplies({ subject: 'About: Oven door seal', messageId: id }, 'Yes, two sizes.'));
    const read = await pass();
    expect(read.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
    const message = await store.db
      .selectFrom('activity')
      .select(['status', 'failure_reason', 'sent_at', 'message_id'])
      .where('obligation_id', '=', row.id)
      .where('direction', '=', 'outbound')
      .executeTakeFirstOrThrow();
    expect(message).toMatchObject({ status: 'sent', failure_reason: null, message_id: id });
    expect(message.sent_at).not.toBeNull();
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'open', waiting_on: null });
    expect(detail.work.action.label).toBe('Read the reply');
    const texts = detail.timeline.map((t: { text: string }) => t.text);
    expect(texts).toContain('Sam Oven replied, so "About: Oven door seal" did reach them.');
  });

  it('an HTML-only reply is read as text', async () => {
    const row = await sentRow('Flour delivery');
    await put(
      rawMail({
        from: 'Sam Oven <sam@ovens.test>',
        subject: `RE: ${row.subject}`,
        date: hoursAgo(1),
        inReplyTo: row.messageId,
        html: '<p>Delivery on <b>Friday</b>.</p><script>alert("x")</script>',
      }),
    );
    await pass();
    const reply = (await get(`/work/${row.id}`))
      .json()
      .data.messages.find((m: { direction: string }) => m.direction === 'inbound');
    expect(reply.body).toContain('Friday');
    expect(reply.body).not.toContain('<p>');
    expect(reply.body).not.toContain('<b>');
  });

  it('mail with the subject that reached the mailbox before the message went is not its reply', async () => {
    const row = await sentRow('Trailer quote', 'rae@trailers.test');
    const mail = (text: string) =>
      rawMail({ from: 'Rae <rae@trailers.test>', subject: `Re: ${row.subject}`, date: hoursAgo(2), text });
    // Old mail, as a mailbox read for the first time, or shared with a desk set up since, holds.
    await imap.append(mail('The quote is 900.'), { mailbox: MAILBOX, at: hoursAgo(1) });
    expect((await pass()).matched).toEqual([]);
    expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'waiting' });
    await put(mail('The quote is 950 now.'));
    expect((await pass()).matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
  });

  it('a message a business file brought in is answered by mail that reached the mailbox before the import', async () => {
    const row = await sentRow('Oven service', 'ivy@service.test');
    // As an import writes it: no Message-ID of the desk's, and the import's moment as its send.
    await store.db
      .updateTable('activity')
      .set({ message_id: null, sent_at: now.toISOString() })
      .where('obligation_id', '=', row.id)
      .execute();
    const mail = rawMail({
      from: 'Ivy <ivy@service.test>',
      subject: `Re: ${row.subject}`,
      date: hoursAgo(3),
      text: 'Booked.',
    });
    await imap.append(mail, { mailbox: MAILBOX, at: hoursAgo(2) });
    expect((await pass()).matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
  });

  it('a message the desk sent is answered by mail stamped a few minutes early by a server clock behind the desk', async () => {
    const row = await sentRow('Oven gasket', 'gus@service.test');
    const mail = rawMail({ from: 'Gus <gus@service.test>', subject: `Re: ${row.subject}`, date: now, text: 'Fitted.' });
    await imap.append(mail, { mailbox: MAILBOX, at: new Date(now.getTime() - 5 * 60_000) });
    expect((await pass()).matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
  });

  it('a reply threaded on the message with its domain written in capitals on the way is its reply', async () => {
    const row = await sentRow('Flour sacks', 'fl@mill.test');
    const shouted = row.messageId.replace(/@[^>]+>$/, (d) => d.toUpperCase());
    expect(shouted).not.toBe(row.messageId);
    await put(
      rawMail({ from: 'Fl <fl@mill.test>', subject: 'sacks', date: hoursAgo(1), inReplyTo: shouted, text: 'Fine.' }),
    );
    expect((await pass()).matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
  });

  it('a reply matched by sender and subject does the same', async () => {
    const row = await sentRow('Chimney sweep', 'sweep@chimney.test');
    await put(
      rawMail({
        from: 'Sweep Co <Sweep@Chimney.test>',
        subject: `Re:  ${row.subject}`,
        date: hoursAgo(1),
        text: 'Tuesday works.',
      }),
    );
    const r = await pass();
    expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'open', waiting_on: null });
    expect(detail.work.action.type).toBe('own');
  });

  it('a reply whose subject a mail system tagged [EXTERNAL] is matched by sender and subject all the same', async () => {
    const row = await sentRow('Gutter repair', 'gutters@roofing.test');
    await put(
      rawMail({
        from: 'Roofing <gutters@roofing.test>',
        subject: `RE: [EXTERNAL] ${row.subject}`,
        date: hoursAgo(1),
        text: 'We can come Thursday.',
      }),
    );
    const r = await pass();
    expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
  });

  it("a reply names the row it answers by In-Reply-To, before the thread's other messages", async () => {
    const asked = await sentRow('Flour order');
    const chased = await sentRow('Flour order, the invoice');
    await put(samReplies(asked, 'The order ships Monday.', { references: `${asked.messageId} ${chased.messageId}` }));
    const r = await pass();
    expect(r.matched).toEqual([expect.objectContaining({ work_id: asked.id, kind: 'reply' })]);
    expect((await get(`/work/${chased.id}`)).json().data.work).toMatchObject({ status: 'waiting' });
  });

  it("a reply threaded on another desk's message is not this desk's, whatever its sender and subject", async () => {
    const row = await sentRow('Shared mailbox question');
    await put(
      rawMail({
        from: 'Sam Oven <sam@ovens.test>',
        subject: `Re: ${row.subject}`,
        date: hoursAgo(1),
        // The form of a Message-ID a desk makes, under the same domain, but not one this desk sent.
        inReplyTo: '<BBBBBBBBBBBBBBBBBBBBBB.desk@bakery.test>',
        text: 'Answering the other desk.',
      }),
    );
    const r = await pass();
    expect(r.matched).toEqual([]);
    expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({
      status: 'waiting',
      waiting_on: 'Sam Oven',
    });
  });

  it("the desk's own message read back from the mailbox is not a reply, though it is threaded on one", async () => {
    const row = await sentRow('Van hire');
    // The desk chased: a second message on the row, sent under its own Message-ID.
    const sentChase = await makeDraft(store.db, d.desk.id, row.id, {
      subject: `Re: ${row.subject}`,
      to: 'sam@ovens.test',
    });
    await store.db
      .updateTable('activity')
      .set({
        status: 'sent',
        sent_at: hoursAgo(1).toISOString(),
        message_id: '<DDDDDDDDDDDDDDDDDDDDDD.desk@bakery.test>',
      })
      .where('id', '=', sentChase.id)
      .execute();
    // A copy of that chase, threaded on the first message, lands in the mailbox the desk reads
    // (a copy to itself, or a contact address that includes the desk's own).
    const chase = rawMail({
      from: 'Corner Bakery <desk@bakery.test>',
      to: 'Sam Oven <sam@ovens.test>',
      subject: `Re: ${row.subject}`,
      date: hoursAgo(1),
      messageId: '<DDDDDDDDDDDDDDDDDDDDDD.desk@bakery.test>',
      inReplyTo: row.messageId,
      references: row.messageId,
      text: 'Any news on the van?',
    });
    await put(chase);
    const r = await pass();
    expect(r.matched).toEqual([]);
    expect(r.mailboxes[0]).toMatchObject({ replies: 0, auto_replies: 0 });
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'waiting', waiting_on: 'Sam Oven' });
    expect(detail.messages.every((m: { direction: string }) => m.direction === 'outbound')).toBe(true);
  });

  it("the owner's own follow-up from the desk's address, threaded on its message, is no reply: the wait goes on", async () => {
    const row = await sentRow('Delivery quote');
    // Written by hand in the owner's own mail program, as the desk's address, with a copy filed
    // where the desk reads: not the desk's Message-ID, and not the contact answering.
    await put(
      rawMail({
        from: 'Corner Bakery <Desk@Bakery.test>',
        to: 'Sam Oven <sam@ovens.test>',
        subject: `Re: ${row.subject}`,
        date: hoursAgo(1),
        messageId: '<owner-follow-up-1@mail.bakery.test>',
        inReplyTo: row.messageId,
        references: row.messageId,
        text: 'Also, could you include delivery in the quote?',
      }),
    );
    const r = await pass();
    expect(r.matched).toEqual([]);
    expect(r.mailboxes[0]).toMatchObject({ replies: 0, auto_replies: 0, unrelated: 1 });
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'waiting', waiting_on: 'Sam Oven' });
    expect(detail.messages.every((m: { direction: string }) => m.direction === 'outbound')).toBe(true);
  });

  it("a reply written by another business's desk, threaded on this desk's message, is a reply", async () => {
    const row = await sentRow('Oven parts');
    await put(samReplies(row, 'The parts ship Monday.', { messageId: '<EEEEEEEEEEEEEEEEEEEEEE.desk@ovens.test>' }));
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ replies: 1 });
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work.status).toBe('open');
    expect(detail.messages.some((m: { direction: string; body: string }) => m.direction === 'inbound')).toBe(true);
  });

  it('a reply dated before the message it answers is dated when the desk read it', async () => {
    const row = await sentRow('Ledger question');
    await put(samReplies(row, 'Answered.', { date: new Date('1970-01-01T00:00:00Z') }));
    expect((await pass()).matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
    const detail = (await get(`/work/${row.id}`)).json().data;
    const reply = detail.messages.find((m: { direction: string }) => m.direction === 'inbound');
    expect(reply.sent_at).toBe(h.clock.now().toISOString());
    expect(detail.work.action.hint).toContain(
      `replied on ${dateOfInstant(d.desk.timezone, h.clock.now().toISOString())}`,
    );
  });

  it('a reply dated past the year 9999 is dated when the desk read it, and its row still reads', async () => {
    const row = await sentRow('Oven clock');
    await put(samReplies(row, 'From a long way off.', { date: new Date('+010000-01-01T00:00:00Z') }));
    expect((await pass()).matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
    const res = await get(`/work/${row.id}`);
    expect(res.statusCode).toBe(200);
    const reply = res.json().data.messages.find((m: { direction: string }) => m.direction === 'inbound');
    expect(reply.sent_at).toBe(h.clock.now().toISOString());
    expect((await get('/activity')).statusCode).toBe(200);
  });

  it('a reply with a Message-ID thousands of characters long is kept, and the replies after it are read', async () => {
    const first = await sentRow('Long id');
    const second = await sentRow('After the long id');
    // Random, so that it does not shrink when PostgreSQL compresses an index entry.
    await put(
      samReplies(first, 'A long id.', { messageId: `<${randomBytes(3000).toString('base64url')}@ovens.test>` }),
    );
    await put(samReplies(second, 'A short one.'));
    const r = await pass();
    expect(r.failures).toEqual([]);
    expect(r.matched.map((m) => m.work_id)).toEqual([first.id, second.id]);
    for (const row of [first, second])
      expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'open', waiting_on: null });
  });

  it('a mailbox removed and added again does not take a reply it read before a second time', async () => {
    const row = await sentRow('Flour order');
    const plain = await sentRow('Sugar order');
    const shop = {
      name: 'Shop mail',
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        starttls: false,
        imap: { host: imap.host, port: imap.port, secure: false, user: imap.user, pass: imap.pass, mailbox: 'Shop' },
      },
    };
    await addConnection(store.db, d.desk.id, shop);
    await imap.append(samReplies(row, 'Flour on Friday.'), { mailbox: 'Shop', at: hoursAgo(1) });
    // Mail with no Message-ID is known by a digest of what it says.
    await imap.append(samReplies(plain, 'Sugar on Monday.', { messageId: null }), { mailbox: 'Shop', at: hoursAgo(1) });
    try {
      expect((await pass()).matched.map((m) => m.work_id)).toEqual([row.id, plain.id]);
      await store.db.deleteFrom('connections').where('name', '=', 'Shop mail').execute();
      await addConnection(store.db, d.desk.id, shop);
      const again = await pass();
      expect(again.matched).toEqual([]);
      expect(again.mailboxes.find((m) => m.name === 'Shop mail')).toMatchObject({
        read: 2,
        replies: 0,
        already_handled: 2,
      });
      for (const r of [row, plain]) {
        const detail = (await get(`/work/${r.id}`)).json().data;
        expect(detail.messages.filter((m: { direction: string }) => m.direction === 'inbound')).toHaveLength(1);
        expect(detail.timeline.filter((t: { text: string }) => t.text === 'Sam Oven replied.')).toHaveLength(1);
      }
    } finally {
      await store.db.deleteFrom('connections').where('name', '=', 'Shop mail').execute();
    }
  });

  it('an out-of-office answer goes on the timeline and the wait goes on', async () => {
    const row = await sentRow('Boiler service');
    await put(
      rawMail({
        from: 'Sam Oven <sam@ovens.test>',
        subject: `Out of office: ${row.subject}`,
        date: hoursAgo(1),
        inReplyTo: row.messageId,
        headers: { 'Auto-Submitted': 'auto-replied' },
        text: 'I am away until Monday.',
      }),
    );
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ auto_replies: 1, replies: 0 });
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'waiting', waiting_on: 'Sam Oven' });
    expect(detail.work.action.type).toBe('wait');
    expect(detail.messages.every((m: { direction: string }) => m.direction === 'outbound')).toBe(true);
    expect(detail.timeline.some((t: { kind: string }) => t.kind === 'auto_reply')).toBe(true);
  });

  it("Outlook's automatic reply, not threaded and with no Re:, is matched by sender and subject and the wait goes on", async () => {
    const row = await sentRow('Gutter clearing');
    await put(
      rawMail({
        from: 'Sam Oven <sam@ovens.test>',
        subject: `Automatic reply: ${row.subject}`,
        date: hoursAgo(1),
        headers: { 'Auto-Submitted': 'auto-replied' },
        text: 'I am away until Monday.',
      }),
    );
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ auto_replies: 1, replies: 0 });
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'waiting', waiting_on: 'Sam Oven' });
    const said = detail.timeline.find((t: { kind: string }) => t.kind === 'auto_reply');
    expect(said.text).toContain(`Automatic reply: ${row.subject}`);
  });

  /** A delivery report that the row's message to nobody@ovens.test failed, saying `diagnostic`. */
  const bounced = (row: { subject: string; messageId: string }, diagnostic: string) =>
    bounceMail({
      to: 'desk@bakery.test',
      recipient: 'nobody@ovens.test',
      messageId: row.messageId,
      subject: row.subject,
      date: hoursAgo(1),
      diagnostic,
    });

  it('a bounce of a message whose send got no answer is its first: the row is told to correct the address, once', async () => {
    const row = await failedRow('Gutter quote', 'nobody@ovens.test', 'drop');
    const id = /^Message-ID: (.+)$/im.exec(smtp.received.at(-1)!.raw)![1]!.trim();
    await put(bounced({ subject: 'About: Gutter quote', messageId: id }, '550 5.1.1 user unknown'));
    expect((await pass()).mailboxes[0]).toMatchObject({ bounces: 1 });
    const advice =
      'Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown. Correct the address on the row, then draft the message again.';
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'open', last_error: advice });
    const message = () =>
      store.db
        .selectFrom('activity')
        .select(['status', 'failure_reason', 'sent_at'])
        .where('obligation_id', '=', row.id)
        .where('direction', '=', 'outbound')
        .executeTakeFirstOrThrow();
    expect(await message()).toMatchObject({
      status: 'approved',
      failure_reason: 'Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown',
    });
    expect((await message()).sent_at).not.toBeNull();
    // A second report of it changes nothing more.
    await put(bounced({ subject: 'About: Gutter quote', messageId: id }, '550 again'));
    await pass();
    expect((await get(`/work/${row.id}`)).json().data.work.last_error).toBe(advice);
    expect((await message()).failure_reason).toBe('Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown');
  });

  it('a message the mail server refused keeps no Message-ID: nobody saw it, so no reply or bounce can name it', async () => {
    const row = await failedRow('Boiler quote', 'sam@ovens.test', 'refuse');
    const message = await store.db
      .selectFrom('activity')
      .select(['status', 'message_id'])
      .where('obligation_id', '=', row.id)
      .where('direction', '=', 'outbound')
      .executeTakeFirstOrThrow();
    expect(message).toEqual({ status: 'approved', message_id: null });
  });

  it('a bounce marks the message undelivered and makes the row fix', async () => {
    const row = await sentRow('Window cleaning', 'nobody@ovens.test');
    await put(bounced(row, '550 5.1.1 user unknown'));
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ bounces: 1 });
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({
      status: 'open',
      waiting_on: null,
      last_error:
        'Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown. Correct the address on the row, then draft the message again.',
    });
    expect(detail.work.action.type).toBe('fix');
    expect(detail.messages[0].status).toBe('approved');

    // A second report on the same message, shorter, goes on the timeline and changes no reason.
    await put(bounced(row, '550 no'));
    expect((await pass()).mailboxes[0]).toMatchObject({ bounces: 1 });
    const again = (await get(`/work/${row.id}`)).json().data;
    expect(again.work.last_error).toBe(detail.work.last_error);
    const reasonOf = () =>
      store.db
        .selectFrom('activity')
        .select('failure_reason')
        .where('obligation_id', '=', row.id)
        .executeTakeFirstOrThrow();
    expect((await reasonOf()).failure_reason).toBe('Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown');
    expect(again.timeline.filter((t: { kind: string }) => t.kind === 'bounced')).toHaveLength(2);

    // As the row says: the address corrected, a new draft goes to it and the row is clear again.
    await store.db.updateTable('work').set({ contact_email: 'sam@ovens.test' }).where('id', '=', row.id).execute();
    const drafted = await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: d.key, body: {} });
    expect(drafted.json().data).toMatchObject({ drafted: true });
    const done = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key, body: {} });
    expect(done.json().data).toMatchObject({ delivered: true, status: 'waiting' });
    expect(smtp.received.at(-1)?.to).toEqual(['sam@ovens.test']);
    expect((await get(`/work/${row.id}`)).json().data.work.last_error).toBeNull();
  });

  it.each([
    { door: 'complete', title: 'Awning repair', waiting: false, answered: true },
    { door: 'run', title: 'Shutter repair', waiting: false, answered: true },
    // A chase on a row out with Sam: the run puts the row back open, not waiting on nobody.
    { door: 'run', title: 'Gate repair', waiting: true, answered: true },
    // The server never answers the send: the bounce it delivered still stands.
    { door: 'complete', title: 'Fence repair', waiting: false, answered: false },
  ] as const)(
    'a bounce read while its message is on its way stands ($door, $title): the row is told to correct the address',
    async ({ door, title, waiting, answered }) => {
      const row = await makeWork(store.db, d.desk.id, {
        title,
        class: 'reach_out',
        contact_name: 'Sam Oven',
        contact_email: 'nobody@ovens.test',
        ...(waiting
          ? { status: 'waiting', waiting_on: 'Sam Oven', waiting_since: hoursAgo(24 * 10).toISOString() }
          : {}),
      });
      const subject = `About: ${title}`;
      await makeDraft(store.db, d.desk.id, row.id, { subject, body: 'Could you quote?', to: 'nobody@ovens.test' });
      const [mailbox] = await store.db
        .selectFrom('connections')
        .select('id')
        .where('desk_id', '=', d.desk.id)
        .execute();
      // The mailbox's server had been unreachable: taking this message shows it is back.
      await noteSendFault(store.db, d.desk.id, mailbox!.id, { reason: 'connect ECONNREFUSED', at: now.toISOString() });
      if (door === 'run') await grantReachOut(true);
      const held = smtp.holdNextAnswer();
      try {
        const going = h.call('POST', `/api/v1/work/${row.id}/${door}`, { key: d.key, body: {} });
        // The server has the message and has not answered: its bounce is read now.
        await held.taken;
        const id = /^Message-ID: (.+)$/im.exec(smtp.received.at(-1)!.raw)![1]!.trim();
        await put(bounced({ subject, messageId: id }, '550 5.1.1 user unknown'));
        expect((await pass()).mailboxes[0]).toMatchObject({ bounces: 1 });
        if (answered) held.answer();
        const advice =
          'Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown. Correct the address on the row, then draft the message again.';
        const answer = (await going).json().data;
        if (door === 'complete')
          expect(answer).toMatchObject({
            status: 'open',
            waiting_on: null,
            failed: true,
            delivered: false,
            delivery_note: advice,
          });
        else
          expect(answer).toMatchObject({
            ok: false,
            outcome: `"${subject}" went to Sam Oven <nobody@ovens.test> and bounced; "${title}" needs a look.`,
          });
        const detail = (await get(`/work/${row.id}`)).json().data;
        expect(detail.work).toMatchObject({ status: 'open', waiting_on: null, last_error: advice });
        expect(detail.work.action.type).toBe('fix');
        const message = await store.db
          .selectFrom('activity')
          .select(['status', 'failure_reason', 'sent_at'])
          .where('obligation_id', '=', row.id)
          .where('direction', '=', 'outbound')
          .executeTakeFirstOrThrow();
        expect(message).toMatchObject({
          status: 'approved',
          failure_reason: 'Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown',
        });
        expect(message.sent_at).not.toBeNull();
        const kinds = detail.timeline.map((t: { kind: string }) => t.kind);
        expect(kinds.filter((k: string) => k === 'bounced')).toHaveLength(1);
        expect(kinds).not.toContain('send_failed');
        const by = door === 'run' ? 'The desk' : 'api';
        const when = answered ? 'before the mail server answered' : 'though the mail server never answered';
        expect(detail.timeline.find((t: { kind: string }) => t.kind === 'sent').text).toBe(
          `${by} approved "${subject}" and it was sent to Sam Oven <nobody@ovens.test>; its bounce came back ${when}.`,
        );
        const fault = await store.db
          .selectFrom('connections')
          .select('send_fault')
          .where('id', '=', mailbox!.id)
          .executeTakeFirstOrThrow();
        // A server that took the message is back; one that never answered is not known to be.
        expect(fault.send_fault === null).toBe(answered);
      } finally {
        held.answer();
        await noteSendFault(store.db, d.desk.id, mailbox!.id, null);
        if (door === 'run') await grantReachOut(false);
      }
    },
  );

  it('a bounce of the message that finished a row opens it again; a row the owner closed stays closed', async () => {
    const finished = (title: string) => sentRow(title, 'nobody@ovens.test', null);
    const done = await finished('Send the menu');
    const closed = await finished('Send the price list');
    await store.db.updateTable('work').set({ status: 'closed' }).where('id', '=', closed.id).execute();
    const openBefore = (await get('/me')).json().data.work.open;
    await put(bounced(done, '550 5.1.1 user unknown'));
    await put(bounced(closed, '550 5.1.1 user unknown'));
    expect((await pass()).mailboxes[0]).toMatchObject({ bounces: 2 });

    const reopened = (await get(`/work/${done.id}`)).json().data;
    expect(reopened.work).toMatchObject({
      status: 'open',
      last_error:
        'Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown. Correct the address on the row, then draft the message again.',
    });
    expect(reopened.work.action.type).toBe('fix');
    expect(reopened.timeline.map((t: { text: string }) => t.text)).toContain(
      'Mail to nobody@ovens.test bounced: 550 5.1.1 user unknown. The row is open again.',
    );
    expect((await get('/me')).json().data.work.open).toBe(openBefore + 1);
    expect((await findWork(store.db, d.desk.id, done.id))!.closed_at).toBeNull();
    const still = (await get(`/work/${closed.id}`)).json().data;
    expect(still.work).toMatchObject({ status: 'closed', last_error: null });
    expect(still.timeline.some((t: { kind: string }) => t.kind === 'bounced')).toBe(true);

    // A row finished after a later message went to the same address was finished by that one.
    const chased = await sentRow('Send the rota', 'nobody@ovens.test');
    await makeDraft(store.db, d.desk.id, chased.id, { subject: 'Again', body: 'Any news?', to: 'nobody@ovens.test' });
    expect((await h.call('POST', `/api/v1/work/${chased.id}/complete`, { key: d.key, body: {} })).statusCode).toBe(200);
    expect(await moveWork(store.db, d.desk.id, chased.id, 'waiting', 'done', { waiting_on: null })).toBe(true);
    await put(bounced(chased, '452 4.2.2 mailbox full'));
    expect((await pass()).mailboxes[0]).toMatchObject({ bounces: 1 });
    const kept = (await get(`/work/${chased.id}`)).json().data;
    expect(kept.work).toMatchObject({ status: 'done', last_error: null });
    expect(kept.timeline.map((t: { text: string }) => t.text)).toContain(
      'Mail to nobody@ovens.test bounced: 452 4.2.2 mailbox full.',
    );
  });

  it("a delivery delayed, or a read receipt, naming the desk's message is no reply: the wait goes on", async () => {
    const row = await sentRow('Flour delivery');
    const report = (from: string, subject: string, type: string, part: string[]) =>
      [
        `From: ${from}`,
        'To: desk@bakery.test',
        `Subject: ${subject}`,
        `Date: ${hoursAgo(1).toUTCString()}`,
        `Message-ID: <report-${Math.random().toString(36).slice(2)}@ovens.test>`,
        `In-Reply-To: ${row.messageId}`,
        `References: ${row.messageId}`,
        'MIME-Version: 1.0',
        `Content-Type: multipart/report; report-type=${type}; boundary="r"`,
        '',
        '--r',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'About your message.',
        '--r',
        ...part,
        '',
        '--r--',
        '',
      ].join('\r\n');
    await put(
      report(
        'Mail Delivery Subsystem <mailer-daemon@ovens.test>',
        'Delivery Status Notification (Delay)',
        'delivery-status',
        [
          'Content-Type: message/delivery-status',
          '',
          'Reporting-MTA: dns; mx.ovens.test',
          '',
          'Final-Recipient: rfc822; sam@ovens.test',
          'Action: delayed',
          'Status: 4.4.7',
        ],
      ),
    );
    await put(
      report('Sam Oven <sam@ovens.test>', `Read: ${row.subject}`, 'disposition-notification', [
        'Content-Type: message/disposition-notification',
        '',
        'Final-Recipient: rfc822; sam@ovens.test',
        'Disposition: manual-action/MDN-sent-manually; displayed',
      ]),
    );
    const r = await pass();
    expect(r.matched).toEqual([]);
    expect(r.mailboxes[0]).toMatchObject({ replies: 0, bounces: 0, auto_replies: 0, unrelated: 2 });
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'waiting', waiting_on: 'Sam Oven', last_error: null });
    expect(detail.work.action.type).toBe('wait');
    expect(detail.messages.every((m: { direction: string }) => m.direction === 'outbound')).toBe(true);
  });

  it('a late bounce of a message to an address corrected since leaves the row waiting on the new one', async () => {
    const row = await sentRow('Glass order', 'glass@ovens.test');
    // The owner corrected the address and the message went again before the report came.
    await store.db.updateTable('work').set({ contact_email: 'sam@ovens.test' }).where('id', '=', row.id).execute();
    await makeDraft(store.db, d.desk.id, row.id, {
      subject: row.subject,
      body: 'Could you quote?',
      to: 'sam@ovens.test',
    });
    const again = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key, body: {} });
    expect(again.json().data).toMatchObject({ status: 'waiting', delivered: true });
    await put(
      bounceMail({
        to: 'desk@bakery.test',
        recipient: 'glass@ovens.test',
        messageId: row.messageId,
        subject: row.subject,
        date: hoursAgo(1),
        diagnostic: '550 5.1.1 user unknown',
      }),
    );
    const r = await pass();
    expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'bounce' })]);
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'waiting', waiting_on: 'Sam Oven', last_error: null });
    expect(detail.work.action.type).toBe('wait');
    const statuses = detail.messages.map((m: { to: string; status: string }) => [m.to, m.status]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        ['glass@ovens.test', 'approved'],
        ['sam@ovens.test', 'sent'],
      ]),
    );
    expect(detail.timeline.map((t: { text: string }) => t.text)).toContain(
      'Mail to glass@ovens.test bounced: 550 5.1.1 user unknown. A later message went to sam@ovens.test; the row is left as it was.',
    );
  });

  it('unrelated mail and a forged In-Reply-To change nothing', async () => {
    const row = await sentRow('Lease question');
    const before = await footprint();
    await put(rawMail({ from: 'Offers <deals@shop.test>', subject: 'Big sale', date: hoursAgo(1), text: 'Buy now' }));
    await put(
      rawMail({
        from: 'Sam Oven <sam@ovens.test>',
        subject: 'Invoice',
        date: hoursAgo(1),
        inReplyTo: '<AAAAAAAAAAAAAAAAAAAAAA.desk@bakery.test>',
        references: '<AAAAAAAAAAAAAAAAAAAAAA.desk@bakery.test>',
        text: 'Pay me',
      }),
    );
    const r = await pass();
    expect(r.matched).toEqual([]);
    expect(r.mailboxes[0]).toMatchObject({ unrelated: 2 });
    expect(await footprint()).toEqual(before);
    expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({
      status: 'waiting',
      waiting_on: 'Sam Oven',
    });
  });

  it('a reply under the Message-ID of mail left alone as unrelated is read for what it is', async () => {
    const row = await sentRow('Oven price list');
    const reused = `<same-${Math.random().toString(36).slice(2)}@ovens.test>`;
    await put(
      rawMail({
        from: 'Sam Oven <sam@ovens.test>',
        subject: 'Our spring price list',
        date: hoursAgo(2),
        messageId: reused,
        text: 'Prices attached.',
      }),
    );
    expect((await pass()).matched).toEqual([]);
    await put(samReplies(row, 'Yes, 240 GBP.', { messageId: reused }));
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ replies: 1, already_handled: 0 });
    expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'open' });
  });

  it('two passes at once, another pass and a restart handle each message once', async () => {
    const row = await sentRow('Fridge repair');
    await put(samReplies(row, 'Done.'));
    const [a, b] = await Promise.all([pass(), pass()]);
    expect(a.matched.length + b.matched.length).toBe(1);
    expect((await pass()).matched).toEqual([]);
    const restarted = await harness(store, { config: { mailTimeoutMs: 3000 } });
    try {
      const again = await pass(restarted);
      expect(again.matched).toEqual([]);
      expect(again.mailboxes[0]).toMatchObject({ status: 'read', read: 0 });
    } finally {
      await restarted.close();
    }
    const inbound = (await get(`/work/${row.id}`))
      .json()
      .data.messages.filter((m: { direction: string }) => m.direction === 'inbound');
    expect(inbound).toHaveLength(1);
  });

  it("a reply to two of the desk's addresses, read from both mailboxes, is handled once", async () => {
    const row = await sentRow('Bread crates');
    await readVia(d.desk.id, 'Accounts mail', imap.port, 'Accounts');
    const reply = samReplies(row, 'Crates come Thursday.', { messageId: '<crates@ovens.test>' });
    await put(reply);
    await imap.append(reply, { mailbox: 'Accounts', at: hoursAgo(1) });
    try {
      const r = await pass();
      expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
      expect(r.mailboxes.find((m) => m.name === 'Accounts mail')).toMatchObject({ replies: 0, already_handled: 1 });
      const detail = (await get(`/work/${row.id}`)).json().data;
      expect(detail.messages.filter((m: { direction: string }) => m.direction === 'inbound')).toHaveLength(1);
      expect(detail.timeline.filter((t: { text: string }) => t.text === 'Sam Oven replied.')).toHaveLength(1);
    } finally {
      await store.db.deleteFrom('connections').where('name', '=', 'Accounts mail').execute();
    }
  });

  it("a reply to two of the desk's addresses, read by two passes at once, one from each mailbox, is handled once", async () => {
    await readVia(d.desk.id, 'Orders mail', imap.port, 'Orders');
    await imap.append(rawMail({ from: 'news@elsewhere.test', subject: 'Hi', date: hoursAgo(48), text: 'hi' }), {
      mailbox: 'Orders',
      at: hoursAgo(48),
    });
    try {
      await pass();
      const rows = [await sentRow('Flour sacks'), await sentRow('Sugar sacks'), await sentRow('Salt sacks')];
      for (const [i, row] of rows.entries()) {
        const reply = samReplies(row, 'They come Monday.', { messageId: `<sacks-${i}@ovens.test>` });
        await put(reply);
        await imap.append(reply, { mailbox: 'Orders', at: hoursAgo(1) });
      }
      // Each pass finds the copies in one mailbox only, as when they reach the second a moment
      // later: two processes, each with one copy of every reply, handling them at once.
      const reader = new ImapReader();
      let arrived = 0;
      let bothRead!: () => void;
      const together = new Promise<void>((resolve) => (bothRead = resolve));
      const notYetIn = (box: string) =>
        runMailPass(
          {
            ...h.deps,
            engine: {
              ...h.deps.engine,
              reader: {
                check: (s, o) => reader.check(s, o),
                async read(s, from, l) {
                  if (s.mailbox === box) return reader.read(s, from, { ...l, maxMessages: 0 });
                  const batch = await reader.read(s, from, l);
                  if (++arrived === 2) bothRead();
                  await together;
                  return batch;
                },
              },
            },
          },
          { desk: d.desk.slug },
        );
      const [a, b] = await Promise.all([notYetIn('Orders'), notYetIn(MAILBOX)]);
      expect([...a.matched, ...b.matched].map((m) => m.work_id).sort()).toEqual(rows.map((r) => r.id).sort());
      for (const row of rows) {
        const detail = (await get(`/work/${row.id}`)).json().data;
        expect(detail.messages.filter((m: { direction: string }) => m.direction === 'inbound')).toHaveLength(1);
        expect(detail.timeline.filter((t: { text: string }) => t.text === 'Sam Oven replied.')).toHaveLength(1);
      }
    } finally {
      await store.db.deleteFrom('connections').where('name', '=', 'Orders mail').execute();
    }
  });

  it.runIf(name === 'postgres')(
    'a mailbox removed as the pass comes to it is passed over, and the mailboxes after it are read',
    async () => {
      await readVia(d.desk.id, 'Gone mail', imap.port, 'GoneBox');
      await readVia(d.desk.id, 'Kept mail', imap.port, 'KeptBox');
      const gone = await store.db
        .selectFrom('connections')
        .select('id')
        .where('name', '=', 'Gone mail')
        .executeTakeFirstOrThrow();
      try {
        const row = await sentRow('Yeast order');
        await imap.append(samReplies(row, 'Yeast on Friday.'), { mailbox: 'KeptBox', at: hoursAgo(1) });
        // The owner's removal, begun and not yet committed as the pass comes to that mailbox.
        const remover = new pg.Client({ connectionString: store.target });
        await remover.connect();
        await remover.query('begin');
        await remover.query('delete from connections where id = $1', [gone.id]);
        const passing = pass();
        const waiting = () =>
          remover.query(
            "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
          );
        for (let i = 0; i < 400 && (await waiting()).rows.length === 0; i++)
          await new Promise((r) => setTimeout(r, 25));
        expect((await waiting()).rows).toHaveLength(1);
        await remover.query('commit');
        await remover.end();
        const r = await passing;
        expect(r.failures).toEqual([]);
        expect(r.mailboxes.map((m) => m.name)).not.toContain('Gone mail');
        expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
      } finally {
        await store.db.deleteFrom('connections').where('name', 'in', ['Gone mail', 'Kept mail']).execute();
      }
    },
  );

  it('two server processes reading at once handle each message once', async () => {
    const rows = [await sentRow('Tiles quote'), await sentRow('Grout quote'), await sentRow('Sealant quote')];
    for (const row of rows) await put(samReplies(row, 'Here.'));
    const results = await racePasses<MailPassReport>('mail', store.target, TEST_NOW, { desk: d.desk.slug });
    // Both reached the server: a pass that timed out would leave the replies to the next test.
    expect(results.flatMap((r) => r.mailboxes.map((m) => m.error))).toEqual([null, null]);
    const matched = results.flatMap((r) => r.matched.map((m) => m.work_id)).sort((a, b) => a - b);
    expect(matched).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    for (const row of rows) {
      const inbound = (await get(`/work/${row.id}`))
        .json()
        .data.messages.filter((m: { direction: string }) => m.direction === 'inbound');
      expect(inbound).toHaveLength(1);
    }
  }, 180_000);

  it('a server that is down leaves the mailbox in error, hides the password, and the next pass resumes', async () => {
    const row = await sentRow('Sign repaint');
    await imap.pause();
    try {
      const r = await pass();
      expect(r.mailboxes[0]).toMatchObject({ status: 'error', error_before: null });
      expect(r.mailboxes[0]?.error).toContain(`127.0.0.1:${imap.port}`);
      // The next pass knows the fault went on, so the server's log tells it once.
      const again = await pass();
      expect(again.mailboxes[0]?.error_before).toBe(r.mailboxes[0]?.error);
      const res = await get('/connections');
      const mail = res.json().data.items.find((c: { name: string }) => c.name === 'Office mail');
      expect(mail).toMatchObject({ status: 'connected', connected: true });
      expect(mail.reason).toContain('could not be reached');
      expect(res.body).not.toContain(imap.pass);
      expect(res.body).not.toContain('smtp-secret');
    } finally {
      await imap.resume();
    }
    await put(samReplies(row, 'Yes.'));
    const r = await pass();
    expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
    expect(r.mailboxes[0]).toMatchObject({
      error: null,
      error_before: expect.stringContaining('could not be reached'),
    });
    const mail = (await get('/connections')).json().data.items.find((c: { name: string }) => c.name === 'Office mail');
    expect(mail).toMatchObject({ status: 'connected', reason: null });
  });

  it("a refused login is reported in the server's words", async () => {
    const other = await makeDesk(store.db);
    await addConnection(store.db, other.desk.id, {
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        starttls: false,
        imap: { host: imap.host, port: imap.port, secure: false, user: imap.user, pass: 'wrong' },
      },
    });
    const r = await runMailPass(h.deps, { desk: other.desk.slug });
    expect(r.mailboxes[0]).toMatchObject({ status: 'error' });
    expect(r.mailboxes[0]?.error).toContain('refused the login');
    expect(r.mailboxes[0]?.error).not.toContain('wrong');
  });

  it('a reset mailbox is read again from the last 14 days without handling a message twice', async () => {
    const row = await sentRow('Awning quote');
    const first = samReplies(row, 'First answer.', { date: hoursAgo(3), messageId: '<first-answer@ovens.test>' });
    // Some mail programs send no Message-ID at all.
    const bare = await sentRow('Awning colour');
    const unnamed = samReplies(bare, 'Green, please.', { date: hoursAgo(3), messageId: null });
    await put(first);
    await put(unnamed);
    expect((await pass()).matched).toHaveLength(2);

    await imap.reset(MAILBOX);
    await put(first);
    await put(unnamed);
    const late = await sentRow('Awning fitting');
    await put(samReplies(late, 'Second.'));
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ read: 3, replies: 1, already_handled: 2 });
    expect(r.matched).toEqual([expect.objectContaining({ work_id: late.id })]);
    for (const answered of [row, bare]) {
      const inbound = (await get(`/work/${answered.id}`))
        .json()
        .data.messages.filter((m: { direction: string }) => m.direction === 'inbound');
      expect(inbound).toHaveLength(1);
    }
  });
  it('a reset mailbox holding only older mail is not read from its start by the passes after it', async () => {
    await imap.reset(MAILBOX);
    const old = hoursAgo(30 * 24);
    for (const n of [1, 2, 3])
      await imap.append(rawMail({ from: 'x@y.test', subject: `Old ${n}`, date: old, text: 'x' }), {
        mailbox: MAILBOX,
        at: old,
      });
    expect((await pass()).mailboxes[0]).toMatchObject({ status: 'read', read: 0 });
    expect((await pass()).mailboxes[0]).toMatchObject({ status: 'read', read: 0 });
    const row = await sentRow('Awning lining');
    await put(samReplies(row, 'Blue lining.'));
    const r = await pass();
    expect(r.mailboxes[0]).toMatchObject({ read: 1, replies: 1 });
    expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id })]);
  });

  it('a read position kept by an earlier build, under its UIDVALIDITY alone, goes on where it was', async () => {
    await pass();
    const kept = () =>
      store.db
        .selectFrom('mail_reads')
        .select(['connection_id', 'uidvalidity', 'last_uid'])
        .orderBy('connection_id')
        .execute();
    const [office] = await kept();
    const [validity] = office!.uidvalidity!.split(' ');
    await store.db
      .updateTable('mail_reads')
      .set({ uidvalidity: validity })
      .where('connection_id', '=', office!.connection_id)
      .execute();
    await put(rawMail({ from: 'news@elsewhere.test', subject: 'Offers', date: now, text: 'x' }));
    expect((await pass()).mailboxes[0]).toMatchObject({ read: 1, unrelated: 1 });
    const [after] = await kept();
    expect(after!.uidvalidity).toBe(office!.uidvalidity);
    expect(after!.last_uid).toBeGreaterThan(office!.last_uid);
  });

  it('a folder changed to one that shows the same UIDVALIDITY is read as a new mailbox, and its replies are read', async () => {
    const reader = new ImapReader();
    const real = new Map<string, string>();
    // As a server that numbers every folder's UIDs under UIDVALIDITY 1, which RFC 3501 allows.
    const sharedNumbers = {
      ...h.deps,
      engine: {
        ...h.deps.engine,
        reader: {
          check: (s: MailboxSettings, ms: number) => reader.check(s, ms),
          async read(s: MailboxSettings, from: ReadPosition, l: ReadLimits) {
            if (!s.mailbox.startsWith('Same')) return reader.read(s, from, l);
            const asked = from.uidValidity === '1' ? (real.get(s.mailbox) ?? null) : from.uidValidity;
            const batch = await reader.read(s, { ...from, uidValidity: asked }, l);
            real.set(s.mailbox, batch.uidValidity);
            return { ...batch, uidValidity: '1' };
          },
        },
      },
    };
    const { id } = await readVia(d.desk.id, 'Shared numbers', imap.port, 'SameA');
    try {
      for (const n of [1, 2])
        await imap.append(rawMail({ from: 'x@y.test', subject: `Note ${n}`, date: hoursAgo(1), text: 'x' }), {
          mailbox: 'SameA',
          at: hoursAgo(1),
        });
      await runMailPass(sharedNumbers, { desk: d.desk.slug });
      const row = await sentRow('Awning bracket');
      await imap.append(samReplies(row, 'Two brackets.'), { mailbox: 'SameB', at: now });
      const c = (await connectionById(store.db, d.desk.id, id))!;
      const config = { ...c.config, imap: { ...(c.config.imap as object), mailbox: 'SameB' } };
      await changeConnection(store.db, d.desk.id, id, { ...c, config });
      const r = await runMailPass(sharedNumbers, { desk: d.desk.slug });
      expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id })]);
    } finally {
      await store.db.deleteFrom('connections').where('id', '=', id).execute();
    }
  });

  it('a connection dropped in the middle of a fetch loses nothing, and the next pass resumes', async () => {
    // A loopback proxy in front of Dovecot that cuts the connection at the first FETCH.
    let cut = true;
    const proxy = await cuttingProxy((command) => cut && /FETCH/i.test(command));
    const proxyPort = proxy.port;
    const other = await makeDesk(store.db);
    await readVia(other.desk.id, 'Proxied mail', proxyPort, 'Dropped');
    try {
      await imap.append(rawMail({ from: 'x@y.test', subject: 'Hello', date: hoursAgo(1), text: 'x' }), {
        mailbox: 'Dropped',
        at: hoursAgo(1),
      });
      const dropped = await runMailPass(h.deps, { desk: other.desk.slug });
      expect(dropped.mailboxes[0]).toMatchObject({ status: 'error', read: 0 });
      expect(dropped.mailboxes[0]?.error).toContain(`127.0.0.1:${proxyPort}`);
      cut = false;
      const resumed = await runMailPass(h.deps, { desk: other.desk.slug });
      expect(resumed.mailboxes[0]).toMatchObject({ status: 'read', read: 1, unrelated: 1 });
      expect((await runMailPass(h.deps, { desk: other.desk.slug })).mailboxes[0]).toMatchObject({ read: 0 });
    } finally {
      await proxy.close();
    }
  });

  it('a new mailbox whose first search is cut off is still read from its last 14 days by the next pass', async () => {
    let cut = true;
    const proxy = await cuttingProxy((command) => cut && /UID SEARCH/i.test(command));
    const other = await makeDesk(store.db);
    await readVia(other.desk.id, 'Proxied mail', proxy.port, 'Fresh');
    try {
      const old = hoursAgo(40 * 24);
      for (const n of [1, 2, 3])
        await imap.append(rawMail({ from: 'x@y.test', subject: `Old ${n}`, date: old, text: 'x' }), {
          mailbox: 'Fresh',
          at: old,
        });
      await imap.append(rawMail({ from: 'x@y.test', subject: 'Recent', date: hoursAgo(2), text: 'x' }), {
        mailbox: 'Fresh',
        at: hoursAgo(2),
      });
      expect((await runMailPass(h.deps, { desk: other.desk.slug })).mailboxes[0]).toMatchObject({ status: 'error' });
      cut = false;
      const resumed = await runMailPass(h.deps, { desk: other.desk.slug });
      expect(resumed.mailboxes[0]).toMatchObject({ status: 'read', read: 1, unrelated: 1 });
    } finally {
      await proxy.close();
    }
  });

  it('a message the server cannot deliver does not hold back the replies read before it', async () => {
    const first = await sentRow('Proofing cabinet');
    const second = await sentRow('Mixer service');
    // A loopback proxy in front of Dovecot that cuts the connection at the fifth FETCH: each
    // message takes two (its size, then the message), so the third message is never read.
    let fetches = 0;
    let cut = true;
    const proxy = await cuttingProxy((command) => /FETCH/i.test(command) && ++fetches >= 5 && cut);
    const proxyPort = proxy.port;
    await readVia(d.desk.id, 'Partial mail', proxyPort, 'Partial');
    const at = { mailbox: 'Partial', at: hoursAgo(1) };
    try {
      await imap.append(samReplies(first, 'Yes, Tuesday.'), at);
      await imap.append(samReplies(second, 'Booked for Friday.'), at);
      await imap.append(rawMail({ from: 'x@y.test', subject: 'Hello', date: hoursAgo(1), text: 'x' }), at);

      const stopped = (await pass()).mailboxes.find((m) => m.name === 'Partial mail');
      expect(stopped).toMatchObject({ status: 'error', read: 2, replies: 2, more: false });
      expect(stopped?.error).toContain(`127.0.0.1:${proxyPort}`);
      for (const row of [first, second])
        expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'open', waiting_on: null });

      cut = false;
      const resumed = (await pass()).mailboxes.find((m) => m.name === 'Partial mail');
      expect(resumed).toMatchObject({ status: 'read', error: null, read: 1, unrelated: 1 });
    } finally {
      await proxy.close();
      await store.db.deleteFrom('connections').where('name', '=', 'Partial mail').execute();
    }
  });

  /** Makes the database refuse to keep any reply, as an unforeseen fault in handling one would. */
  const refuseReplies = () =>
    refuse(store.db, name, {
      name: 'refuse_reply',
      table: 'activity',
      on: 'INSERT',
      when: "NEW.direction = 'inbound'",
    });

  it('a message that cannot be handled stops its mailbox with the reason shown, and the next pass takes it', async () => {
    const row = await sentRow('Tray rack');
    await put(samReplies(row, 'Racks on Monday.'));
    const allow = await refuseReplies();
    try {
      const r = await pass();
      expect(r.failures).toEqual([]);
      const office = r.mailboxes.find((m) => m.name === 'Office mail');
      expect(office).toMatchObject({ status: 'error', replies: 0 });
      expect(office?.error).toMatch(/^A message could not be handled: .*reply refused/);
      const mail = (await get('/connections'))
        .json()
        .data.items.find((c: { name: string }) => c.name === 'Office mail');
      expect(mail).toMatchObject({ status: 'connected', connected: true });
      expect(mail.reason).toContain('reply refused');
      expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'waiting' });
    } finally {
      await allow();
    }
    const again = await pass();
    expect(again.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
    expect(again.mailboxes.find((m) => m.name === 'Office mail')).toMatchObject({ status: 'read', error: null });
    expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'open', waiting_on: null });
  });

  it(`a message no pass can handle is passed over after ${STUCK_PASSES} passes, said in the log, and the mailbox reads on`, async () => {
    const row = await sentRow('Oven hood');
    await pass(); // whatever earlier tests left in the mailbox is read first
    await put(samReplies(row, 'Hood fitted.', { subject: `Re: ${row.subject} \u2014 hood` }));
    await put(rawMail({ from: 'news@elsewhere.test', subject: 'Behind it', date: hoursAgo(1), text: 'x' }));
    const allow = await refuseReplies();
    const started = h.clock.now();
    try {
      for (let n = 1; n < STUCK_PASSES; n++) {
        const office = (await laterPass()).mailboxes.find((m) => m.name === 'Office mail');
        expect(office).toMatchObject({ status: 'error', read: 0, passed_over: 0 });
        expect(office?.error).toMatch(/^A message could not be handled: .*reply refused/);
        expect(office?.error).toContain(
          `(${n} of ${STUCK_PASSES} passes a minute or more apart; after ${STUCK_PASSES}, the desk passes over it`,
        );
        // Another pass within the minute (another process, or one run by hand) is not counted.
        const soon = (await pass()).mailboxes.find((m) => m.name === 'Office mail');
        expect(soon?.error).toContain(`(${n} of ${STUCK_PASSES} passes`);
      }
      const last = (await laterPass()).mailboxes.find((m) => m.name === 'Office mail');
      // Passed over, and the message behind it read at last.
      expect(last).toMatchObject({ status: 'read', error: null, read: 2, passed_over: 1, unrelated: 1, replies: 0 });
      const mail = (await get('/connections'))
        .json()
        .data.items.find((c: { name: string }) => c.name === 'Office mail');
      expect(mail).toMatchObject({ status: 'connected', reason: null });
      const logged = (await get('/events?limit=200'))
        .json()
        .data.items.filter((e: { kind: string }) => e.kind === 'mail_passed_over');
      expect(logged).toHaveLength(1);
      expect(logged[0].message).toMatch(
        new RegExp(
          `^A message from sam@ovens\\.test \\("Re: .* hood"\\) could not be handled in ${STUCK_PASSES} passes, so the desk passed over it: .*reply refused`,
        ),
      );
      expect(logged[0].data).toMatchObject({
        from: 'sam@ovens.test',
        reason: expect.stringContaining('reply refused'),
      });
      expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'waiting' });
    } finally {
      await allow();
      h.clock.set(started);
    }
    // Not read again once the store would take it: passed over is handled.
    const after = (await pass()).mailboxes.find((m) => m.name === 'Office mail');
    expect(after).toMatchObject({ status: 'read', read: 0, passed_over: 0 });
    expect((await get(`/work/${row.id}`)).json().data.work).toMatchObject({ status: 'waiting' });
  });

  it('counts the passes stopped at one message afresh when a pass stops at another', async () => {
    const first = await sentRow('Flue');
    const second = await sentRow('Grate');
    await pass();
    await put(samReplies(first, 'Flue swept.'));
    const allow = await refuseReplies();
    const started = h.clock.now();
    try {
      for (let n = 1; n < STUCK_PASSES; n++) await laterPass();
      expect((await pass()).mailboxes.find((m) => m.name === 'Office mail')?.error).toContain(
        `(${STUCK_PASSES - 1} of ${STUCK_PASSES} passes`,
      );
    } finally {
      await allow();
    }
    // The store takes the first now; the second is refused from its first pass.
    await put(samReplies(second, 'Grate cast.'));
    const again = await refuse(store.db, name, {
      name: 'refuse_grate',
      table: 'activity',
      on: 'INSERT',
      when: `NEW.direction = 'inbound' and NEW.obligation_id = ${second.id}`,
    });
    try {
      const office = (await laterPass()).mailboxes.find((m) => m.name === 'Office mail');
      expect(office).toMatchObject({ status: 'error', replies: 1, passed_over: 0 });
      expect(office?.error).toContain(`(1 of ${STUCK_PASSES} passes a minute or more apart;`);
    } finally {
      await again();
      h.clock.set(started);
    }
    expect((await pass()).mailboxes.find((m) => m.name === 'Office mail')).toMatchObject({
      status: 'read',
      replies: 1,
    });
  });

  it('says when more messages wait than one pass reads, and the next read goes on after them', async () => {
    const settings = { host: imap.host, port: imap.port, secure: false, user: imap.user, pass: imap.pass };
    const at = { mailbox: 'Backlog', at: hoursAgo(1) };
    for (const n of [1, 2, 3])
      await imap.append(rawMail({ from: 'x@y.test', subject: `Note ${n}`, date: hoursAgo(1), text: 'x' }), at);
    const reader = new ImapReader();
    const limits = { timeoutMs: 3000, maxBytes: 1_000_000, maxMessages: 2 };
    const from = { uidValidity: null, lastUid: 0, since: hoursAgo(24) };
    const firstRead = await reader.read({ ...settings, mailbox: 'Backlog' }, from, limits);
    expect(firstRead).toMatchObject({ more: true, fault: null });
    expect(firstRead.messages.map((m) => m.mail?.subject)).toEqual(['Note 1', 'Note 2']);
    const next = { uidValidity: firstRead.uidValidity, lastUid: firstRead.messages[1]!.uid, since: from.since };
    const secondRead = await reader.read({ ...settings, mailbox: 'Backlog' }, next, limits);
    expect(secondRead).toMatchObject({ more: false, fault: null });
    expect(secondRead.messages.map((m) => m.mail?.subject)).toEqual(['Note 3']);
  });

  it('a message over 10 MB is matched on its headers alone', async () => {
    const row = await sentRow('Shop fit-out plans');
    await put(samReplies(row, 'Plans attached.', { attachment: { name: 'plans.pdf', bytes: 8 * 1024 * 1024 } }));
    const r = await pass();
    expect(r.matched).toEqual([expect.objectContaining({ work_id: row.id, kind: 'reply' })]);
    const detail = (await get(`/work/${row.id}`)).json().data;
    expect(detail.work).toMatchObject({ status: 'open', waiting_on: null });
    const reply = detail.messages.find((m: { direction: string }) => m.direction === 'inbound');
    expect(reply.body).toContain('only its headers were read');
    expect(reply.attachments).toEqual([]);
  }, 60_000);
});

if (missing) describe('reading replies from the mailbox', () => it.skip(`skipped: ${missing}`, () => undefined));
