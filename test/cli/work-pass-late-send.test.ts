import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { deskWith } from '../helpers/cli.ts';
import { DIALECTS, sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox, messagesOf, timelineOf } from '../http/writes-helpers.ts';
import { findWork } from '../../src/store/repositories/work.ts';

// A send the mail server answers after the run's time limit records whether it went on its
// own. `desk work pass` must wait for that before it closes the store and exits: otherwise the
// message stays `approved` with nothing to say it went, and a later pass sends it again.

describe('desk work pass and a send answered late', () => {
  let store: TestStore;
  let smtp: TestSmtp;

  beforeAll(async () => {
    store = await sqliteStore();
    smtp = await startSmtpServer({ mode: 'slow' });
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  it('records the message sent before the command ends, though the run ran out of time', async () => {
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    await writeRails(store.db, d.desk.id, { hours: 'always' });
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask the supplier',
      class: 'reach_out',
      contact_email: 'late@supplier.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { to: 'late@supplier.test', status: 'drafted' });

    const run = await deskWith(
      { env: { DESK_RUN_TIMEOUT: '200ms' } },
      store.target,
      'work',
      'pass',
      '--desk',
      d.desk.slug,
      '--json',
    );
    // The run could not say the message went: like `desk run`, the command exits 1.
    expect(run.code, run.err).toBe(1);
    expect(run.json().desks[0].acts[0]).toMatchObject({ ok: false });
    expect(run.json().desks[0].acts[0].outcome).toMatch(/ran out of time while sending/);
    expect(smtp.received.map((m) => m.to)).toEqual([['late@supplier.test']]);
    const [message] = await messagesOf(store.db, d.desk.id, row.id);
    expect(message).toMatchObject({ status: 'sent' });
    expect(message!.sent_at).not.toBeNull();
    // The message went, so the row is out with the supplier as the run would have left it, and
    // no later pass sends it again.
    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after).toMatchObject({ status: 'waiting', waiting_on: 'late@supplier.test' });
    const texts = (await timelineOf(store.db, d.desk.id, row.id)).map((t) => t.text);
    expect(texts.at(-1)).toBe("The message went after the run's time ran out; now waiting on late@supplier.test.");
  });
});

describe('desk work pass and a mail server that refuses', () => {
  let store: TestStore;
  let smtp: TestSmtp;

  beforeAll(async () => {
    store = await sqliteStore();
    smtp = await startSmtpServer({ mode: 'refuse' });
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  it('counts the acts that failed, says so on stderr and exits 1', async () => {
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    await writeRails(store.db, d.desk.id, { hours: 'always' });
    for (const n of [1, 2])
      await makeWork(store.db, d.desk.id, {
        title: `Ask ${n}`,
        class: 'reach_out',
        contact_email: `no${n}@refused.test`,
      });

    const run = await deskWith({}, store.target, 'work', 'pass', '--desk', d.desk.slug);
    expect(run.code).toBe(1);
    expect(run.out).toContain(`${d.desk.slug}: 2 acts, 2 of them failed.`);
    expect(run.err).toContain('desk: 2 acts did not succeed; see each row above.');
  });
});

describe.each(DIALECTS)('desk work pass and a mail server that cannot be reached ($name)', ({ open }) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('counts no act, says the row is as it was and was put back, and exits 1', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, port);
    await writeRails(store.db, d.desk.id, { hours: 'always' });
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask the miller',
      class: 'reach_out',
      contact_email: 'miller@mill.test',
    });

    const run = await deskWith({}, store.target, 'work', 'pass', '--desk', d.desk.slug);
    // Nothing the pass was asked to do got done, so a script must be able to tell (P-pass-12).
    expect(run.code, run.err).toBe(1);
    expect(run.out).toContain(`${d.desk.slug}: 0 acts; its mail server did not confirm a send`);
    expect(run.out).toContain(
      `#${row.id} not sent: the mail server did not take the message, so the row is as it was.`,
    );
    expect(run.err.trim()).toBe(
      'desk: 1 send the mail server did not take was put back for the next pass; see each row above.',
    );
    expect(await messagesOf(store.db, d.desk.id, row.id)).toEqual([]);

    const json = await deskWith({}, store.target, 'work', 'pass', '--desk', d.desk.slug, '--json');
    expect(json.code, json.err).toBe(1);
    expect(json.json().desks[0]).toMatchObject({ state: 'mailbox_down', acts: [{ work_id: row.id, put_back: true }] });
  });

  it('exits 0 when there was nothing to do', async () => {
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await writeRails(store.db, d.desk.id, { hours: 'always' });
    const run = await deskWith({}, store.target, 'work', 'pass', '--desk', d.desk.slug);
    expect(run.code, run.err).toBe(0);
    expect(run.out.trim()).toBe(`${d.desk.slug}: 0 acts.`);
    expect(run.err).toBe('');
  });
});
