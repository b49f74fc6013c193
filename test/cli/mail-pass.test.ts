import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { refuse } from '../helpers/refuse.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { desk, deskWith } from '../helpers/cli.ts';
import { harness, TEST_NOW } from '../helpers/app.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { dovecotMissing, startDovecot, type TestImap } from '../helpers/dovecot.ts';
import { rawMail } from '../helpers/mail.ts';
import { STUCK_PASSES, STUCK_SPACING_MS } from '../../src/domain/mail/read.ts';

// The owner's way through: a desk whose mailbox has an imap part, a row completed so its
// message goes out, the supplier's reply in the inbox, `desk mail pass`, and the API shows it.

const missing = dovecotMissing();
const now = new Date(TEST_NOW);

describe.skipIf(missing !== null).each(DIALECTS)('desk mail pass ($name)', ({ name, open }) => {
  let store: TestStore;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let imap: TestImap;
  let dir: string;

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'accept' });
    imap = await startDovecot();
    dir = mkdtempSync(path.join(tmpdir(), 'desk-mail-pass-'));
  }, 30_000);
  afterAll(async () => {
    await smtp?.close();
    await imap?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the reply, and GET /work/{id} shows it with the row open and own', async () => {
    const file = path.join(dir, 'bakery.yaml');
    writeFileSync(
      file,
      `desk: { name: Corner Bakery, slug: mail-pass-bakery }
grants: [reach_out]
connections:
  - ref: mailbox
    provider: smtp
    name: Shop mailbox
    category: mail
    status: connected
    config:
      host: 127.0.0.1
      port: ${smtp.port}
      secure: false
      starttls: false
      from: "Corner Bakery <owner@bakery.test>"
      imap: { host: 127.0.0.1, port: ${imap.port}, secure: false, user: ${imap.user}, pass: ${imap.pass} }
work:
  - ref: quote
    title: Get the oven repair quote
    class: reach_out
    contact_name: Sam Oven
    contact_email: sam@ovens.test
`,
    );
    const imported = await desk(store.target, 'import', file, '--key', 'test', '--json');
    expect(imported.code).toBe(0);
    const { desk: d, refs, key } = imported.json();
    const id = String(refs.quote);
    // The inbox password is sealed at rest like the SMTP one, and the pass below still reads with it.
    const stored = await store.db
      .selectFrom('connections')
      .select('config')
      .where('desk_id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(stored.config).not.toContain(imap.pass);
    expect((await desk(store.target, 'work', 'draft', id, '--desk', d.slug)).code).toBe(0);
    const done = await desk(store.target, 'work', 'complete', id, '--desk', d.slug, '--json');
    expect(done.json()).toMatchObject({ status: 'waiting', waiting_on: 'Sam Oven', delivered: true });
    const sent = smtp.received.at(-1)?.raw ?? '';
    const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(sent)?.[1];
    expect(messageId).toMatch(/@bakery\.test>$/);
    const subject = /^Subject:\s*(.+)$/im.exec(sent)?.[1]?.trim() ?? '';

    await imap.append(
      rawMail({
        from: 'Sam Oven <sam@ovens.test>',
        subject: `Re: ${subject}`,
        date: new Date(now.getTime() - 3_600_000),
        inReplyTo: messageId,
        text: 'The repair is 240 GBP.',
      }),
      { at: new Date(now.getTime() - 3_600_000) },
    );
    const pass = await desk(store.target, 'mail', 'pass', '--desk', d.slug);
    expect(pass.code).toBe(0);
    expect(pass.out).toContain('Read 1 mailbox: 1 answer matched.');
    // Each mailbox and answer names its desk: mailboxes of several desks may share a name.
    expect(pass.out).toContain(`mail-pass-bakery, Shop mailbox: 1 message, 1 reply`);
    expect(pass.out).toContain(`mail-pass-bakery #${id} reply from Sam Oven`);
    const shown = await desk(store.target, 'work', 'show', id, '--desk', d.slug);
    expect(shown.out).toMatch(/ received email from Sam Oven: Re: /);

    const h = await harness(store);
    try {
      const detail = (await h.call('GET', `/api/v1/work/${id}`, { key: key.key })).json().data;
      expect(detail.work).toMatchObject({ status: 'open', waiting_on: null });
      expect(detail.work.action.type).toBe('own');
      expect(detail.messages.at(-1)).toMatchObject({
        direction: 'inbound',
        status: 'received',
        actor: 'Sam Oven',
        body: 'The repair is 240 GBP.',
      });
    } finally {
      await h.close();
    }

    const again = await desk(store.target, 'mail', 'pass', '--desk', d.slug, '--json');
    expect(again.json()).toMatchObject({
      matched: [],
      mailboxes: [expect.objectContaining({ read: 0, status: 'read' })],
    });
  });

  it('says when a mailbox cannot be read, and exits 1', async () => {
    await imap.pause();
    try {
      const r = await desk(store.target, 'mail', 'pass', '--desk', 'mail-pass-bakery');
      expect(r.code).toBe(1);
      expect(r.out).toContain('Read 0 mailboxes (1 more could not be read): 0 answers matched.');
      expect(r.out).toContain('mail-pass-bakery, Shop mailbox: could not be read: The mail server at 127.0.0.1:');
      expect(r.out).not.toContain(imap.pass);
    } finally {
      await imap.resume();
    }
  });

  it(`says which passes stopped at a message it cannot handle, and that the ${STUCK_PASSES}th passed over it`, async () => {
    await imap.append(
      rawMail({ from: 'news@elsewhere.test', subject: 'Offers', date: new Date(now.getTime() - 3_600_000), text: 'x' }),
      { at: new Date(now.getTime() - 3_600_000) },
    );
    // Every message is refused as it is handled; being passed over is still kept.
    const allow = await refuse(store.db, name, {
      name: 'refuse_seen',
      table: 'mail_seen',
      on: 'INSERT',
      when: "NEW.outcome = 'unrelated'",
    });
    try {
      // Each pass a minute after the last, as the server's own would be.
      const at = (n: number) => ({
        env: { DESK_NOW: new Date(now.getTime() + n * (STUCK_SPACING_MS + 1000)).toISOString() },
      });
      for (let n = 1; n < STUCK_PASSES; n++) {
        const r = await deskWith(at(n), store.target, 'mail', 'pass', '--desk', 'mail-pass-bakery');
        expect(r.code).toBe(1);
        expect(r.out).toContain(
          `mail-pass-bakery, Shop mailbox: 0 messages, 0 replies, 0 automatic answers, 0 bounces, 0 unrelated, 0 unreadable, 0 already handled; then reading stopped: A message could not be handled: refuse_seen refused (${n} of ${STUCK_PASSES} passes a minute or more apart; after ${STUCK_PASSES}, the desk passes over it and reads on)`,
        );
      }
      const last = await deskWith(at(STUCK_PASSES), store.target, 'mail', 'pass', '--desk', 'mail-pass-bakery');
      expect(last.code).toBe(0);
      expect(last.out).toContain(
        "mail-pass-bakery, Shop mailbox: 1 message, 0 replies, 0 automatic answers, 0 bounces, 0 unrelated, 0 unreadable, 0 already handled, 1 passed over (which, and why, is in the desk's log: the screen's Record, or GET /events)",
      );
    } finally {
      await allow();
    }
    // Five commands one after the other, each a process that opens the store and the mailbox.
  }, 120_000);

  it('says the pass failed for a desk, not that it has no mailbox, when the desk could not be passed', async () => {
    // The store refuses to note where reading stopped: the desk's pass fails as a whole.
    const allow = await refuse(store.db, name, { name: 'refuse_read', table: 'mail_reads', on: 'UPDATE' });
    try {
      const r = await desk(store.target, 'mail', 'pass', '--desk', 'mail-pass-bakery');
      expect(r.code).toBe(1);
      expect(r.out).toBe('Checked 1 desk: the pass failed for 1 desk.\n');
      expect(r.err).toContain('desk: the mail pass failed for desk mail-pass-bakery: ');
      expect(r.err).toContain('read refused');
    } finally {
      await allow();
    }
  });
});

if (missing) describe('desk mail pass', () => it.skip(`skipped: ${missing}`, () => undefined));
