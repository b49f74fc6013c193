import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { connectMailbox, messagesOf } from './writes-helpers.ts';

// The run's time limit (DESK_RUN_TIMEOUT) bounds a send too: a mail server that has not answered
// when the limit comes is reported as timed_out, and the message stays approved, not sent.

describe.each(DIALECTS)('a run that sends, against a mail server that does not answer ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: TestSmtp;
  let d: Awaited<ReturnType<typeof makeDesk>>;

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'hang' });
    // The mail timeout is far longer than the run's: only the run's limit can end this run.
    h = await harness(store, { config: { runTimeoutMs: 300, mailTimeoutMs: 600_000 } });
    d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
  });
  afterAll(async () => {
    await smtp?.close();
    await h?.close();
    await store?.close();
  });

  it("answers timed_out at the run's limit; the row is as it was and the message approved, not sent", async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask for a winter quote',
      class: 'reach_out',
      contact_name: 'Win',
      contact_email: 'win@clean.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { to: 'win@clean.test' });
    const res = await h.call('POST', `/api/v1/work/${row.id}/run`, { key: d.key });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ ok: false, closed: false, timed_out: true });
    expect(data.reason).toContain("had not answered within the run's time limit");
    expect((await findWork(store.db, d.desk.id, row.id))!.status).toBe('open');
    const [message] = await messagesOf(store.db, d.desk.id, row.id);
    expect(message!.status).toBe('approved');
  });
});
