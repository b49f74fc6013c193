import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import { deskContext, type Deps } from '../../src/domain/context.ts';
import { assignWork } from '../../src/domain/work/assign.ts';
import { completeWork } from '../../src/domain/work/complete.ts';
import { closeWork } from '../../src/domain/work/status.ts';
import { SEND_NOT_KNOWN, sendStaleAt } from '../../src/domain/work/unsettled.ts';
import { claimDraft } from '../../src/store/repositories/activity.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox, messagesOf } from '../http/writes-helpers.ts';

// A row holding a message a stopped send left claimed, longer ago than any send can take
// (P-pass-9), as the owner comes to it. The clock is pinned; every instant is derived from it.

describe.each(DIALECTS)("the owner's changes on a row a stopped send left ($name)", ({ open }) => {
  let store: TestStore;
  let smtp: TestSmtp;
  let clock: FixedClock;
  let deps: Deps;
  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer();
    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    clock = new FixedClock(new Date(TEST_NOW));
    deps = { store, clock, config, engine: realEngine(config) };
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  async function leftClaimed(title: string) {
    clock.set(TEST_NOW);
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    const row = await makeWork(store.db, d.desk.id, { title, class: 'reach_out', contact_email: 'left@stopped.test' });
    const draft = await makeDraft(store.db, d.desk.id, row.id, { to: 'left@stopped.test' });
    await claimDraft(
      store.db,
      d.desk.id,
      draft.id,
      clock.now().toISOString(),
      sendStaleAt(deps.config, clock.now().toISOString()),
    );
    clock.set(new Date(clock.now().getTime() + deps.config.mailTimeoutMs + 61_000));
    return { deskId: d.desk.id, row, draft, owner: deskContext(deps, d.desk, { type: 'owner', name: 'owner' }) };
  }

  it('a close or a hand-on goes through at once: nothing is being sent', async () => {
    const closing = await leftClaimed('Closed by the owner');
    await closeWork(closing.owner, closing.row.id, {});
    expect(await findWork(store.db, closing.deskId, closing.row.id)).toMatchObject({ status: 'closed' });
    const handing = await leftClaimed('Handed to Ana');
    await assignWork(handing.owner, handing.row.id, 'Ana');
    expect(await findWork(store.db, handing.deskId, handing.row.id)).toMatchObject({ assignee: 'Ana' });
  });

  it('a complete is answered as a failed send, keeps its note and leaves the row open; the next one closes it', async () => {
    const { deskId, row, draft, owner } = await leftClaimed('Completed by the owner');
    const first = await completeWork(owner, row.id, { note: 'Paid by phone.' });
    expect(first).toMatchObject({ status: 'open', failed: true, delivered: false, delivery_note: SEND_NOT_KNOWN });
    expect(await findWork(store.db, deskId, row.id)).toMatchObject({
      status: 'open',
      last_error: SEND_NOT_KNOWN,
      detail: expect.stringContaining('Paid by phone.'),
    });
    expect((await messagesOf(store.db, deskId, row.id)).map((m) => [m.id, m.failure_reason])).toEqual([
      [draft.id, SEND_NOT_KNOWN],
    ]);
    const second = await completeWork(owner, row.id, { note: 'Paid by phone.' });
    expect(second).toMatchObject({ status: 'done', failed: false, delivered: false });
    expect(smtp.received.filter((m) => m.to.includes('left@stopped.test'))).toEqual([]);
  });
});
