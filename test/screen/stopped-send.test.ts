import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEND_NOT_KNOWN, sendStaleAt } from '../../src/domain/work/unsettled.ts';
import { claimDraft } from '../../src/store/repositories/activity.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox } from '../http/writes-helpers.ts';
import { ownerSession, startScreenServer, type ScreenServer } from './helpers.ts';

// The owner presses "Mark done" on a row a stopped send left claimed (P-pass-9): the page says
// it was not done and why, as for a send that failed, and keeps the note typed.

describe.each(DIALECTS)("the screen's complete on a row a stopped send left ($name)", ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer();
    server = await startScreenServer(store);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await store?.close();
  });

  it('says "Not done" with the reason, and keeps the note', async () => {
    server.clock.set(new Date(TEST_NOW));
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    const row = await makeWork(store.db, d.desk.id, { title: 'Left mid-send', contact_email: 'left@stopped.test' });
    const draft = await makeDraft(store.db, d.desk.id, row.id, { to: 'left@stopped.test' });
    await claimDraft(
      store.db,
      d.desk.id,
      draft.id,
      server.clock.now().toISOString(),
      sendStaleAt(server.deps.config, server.clock.now().toISOString()),
    );
    server.clock.set(new Date(server.clock.now().getTime() + server.deps.config.mailTimeoutMs + 61_000));
    const s = await ownerSession(server, store.db, d.desk.id);
    const pressed = await s.post(`/work/${row.id}/complete`, { note: 'Paid by phone.', idempotency_key: 'done-1' });
    const cookies = { ...s.cookies, ...Object.fromEntries(pressed.cookies.map((c) => [c.name, c.value])) };
    const page = await server.app.inject({
      method: 'GET',
      url: pressed.headers.location as string,
      cookies,
      headers: { accept: 'text/html' },
    });
    const said = page.body.replaceAll('&#39;', "'").replaceAll('&quot;', '"');
    expect(said).toContain(`Not done: ${SEND_NOT_KNOWN}`);
    expect(said).not.toContain('Marked open');
    const kept = await store.db.selectFrom('work').select('detail').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(kept.detail).toContain('Paid by phone.');
  });
});
