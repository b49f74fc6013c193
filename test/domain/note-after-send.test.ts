import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import { deskContext, type Deps } from '../../src/domain/context.ts';
import { TEXT_MAX } from '../../src/domain/limits.ts';
import { completeWork, NOT_RECORDED } from '../../src/domain/work/complete.ts';
import { sql } from 'kysely';
import { findWork, updateWork } from '../../src/store/repositories/work.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox, messagesOf } from '../http/writes-helpers.ts';

// A complete's note is checked against the row's detail before anything is sent. The detail
// may be edited while the message is with the mail server; what the send did then stands, and
// the note is kept in the row's history (P-complete-2).

describe.each(DIALECTS)("a complete's note when the detail fills during its send ($name)", ({ name, open }) => {
  let store: TestStore;
  let smtp: TestSmtp;
  let deps: Deps;
  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer();
    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    deps = { store, clock: new FixedClock(new Date(TEST_NOW)), config, engine: realEngine(config) };
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  const full = 'd'.repeat(TEXT_MAX.detail - 5);
  const note = 'Posted the signed copy too.';

  async function rowWithDraft(title: string, to: string) {
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    const row = await makeWork(store.db, d.desk.id, { title, class: 'reach_out', contact_email: to });
    const draft = await makeDraft(store.db, d.desk.id, row.id, { to });
    return { deskId: d.desk.id, row, draft, owner: deskContext(deps, d.desk, { type: 'owner', name: 'Mia' }) };
  }

  /** Completes the row, filling its detail while the mail server holds its answer. */
  async function completeWhileFilled(deskId: string, rowId: number, owner: ReturnType<typeof deskContext>) {
    const held = smtp.holdNextAnswer();
    const completing = completeWork(owner, rowId, { note });
    await held.taken;
    await updateWork(store.db, deskId, rowId, { detail: full });
    held.answer();
    return completing;
  }

  async function historyOf(rowId: number) {
    return (await store.db.selectFrom('timeline').select(['kind', 'text']).where('work_id', '=', rowId).execute()).map(
      (e) => `${e.kind}: ${e.text}`,
    );
  }

  it('a message that went closes the row, and the note the detail has no room for is in its history', async () => {
    smtp.setMode('accept');
    const { deskId, row, draft, owner } = await rowWithDraft('Send the lease', 'landlord@fill.test');
    const answer = await completeWhileFilled(deskId, row.id, owner);
    expect(answer).toMatchObject({ status: 'waiting', failed: false, delivered: true });
    expect(await findWork(store.db, deskId, row.id)).toMatchObject({ status: 'waiting', detail: full });
    expect((await messagesOf(store.db, deskId, row.id)).map((m) => [m.id, m.status])).toEqual([[draft.id, 'sent']]);
    const history = await historyOf(row.id);
    expect(history).toContain(
      `completed: Mia completed this step; now waiting on landlord@fill.test. Note (kept here only: the row's detail had no room left for it): ${note}`,
    );
    const events = await store.db
      .selectFrom('events')
      .select('kind')
      .where('desk_id', '=', deskId)
      .where('kind', '=', 'completed')
      .execute();
    expect(events).toHaveLength(1);
  });

  it('a message refused leaves the row open with the failure recorded, and the note in its history', async () => {
    smtp.setMode('later-data');
    const { deskId, row, draft, owner } = await rowWithDraft('Send the renewal', 'council@fill.test');
    const answer = await completeWhileFilled(deskId, row.id, owner);
    smtp.setMode('accept');
    expect(answer).toMatchObject({ status: 'open', failed: true, delivered: false });
    const now = await findWork(store.db, deskId, row.id);
    expect(now).toMatchObject({ status: 'open', detail: full });
    expect(now?.last_error).toMatch(/451|later/i);
    const [message] = await messagesOf(store.db, deskId, row.id);
    // Recorded as failed, as D13 has it: not left as though it were still being sent.
    expect(message).toMatchObject({ id: draft.id, status: 'approved' });
    expect(message?.failure_reason).toMatch(/451|later/i);
    expect(await historyOf(row.id)).toContain(
      `noted: Mia added a note (kept here only: the row's detail had no room left for it): ${note}`,
    );
  });

  /** The database refuses the completion's history line on the row: a fault after the send. */
  async function refuseCompletionOf(rowId: number) {
    if (name === 'sqlite')
      await sql
        .raw(`CREATE TRIGGER refuse_completion BEFORE INSERT ON timeline
        WHEN NEW.kind = 'completed' AND NEW.work_id = ${rowId} BEGIN SELECT RAISE(ABORT, 'refused'); END`)
        .execute(store.db);
    else {
      await sql
        .raw(`CREATE FUNCTION refuse_completion() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'refused'; END $$`)
        .execute(store.db);
      await sql
        .raw(`CREATE TRIGGER refuse_completion BEFORE INSERT ON timeline FOR EACH ROW
        WHEN (NEW.kind = 'completed' AND NEW.work_id = ${rowId}) EXECUTE FUNCTION refuse_completion()`)
        .execute(store.db);
    }
    return async () => {
      if (name === 'sqlite') await sql.raw('DROP TRIGGER refuse_completion').execute(store.db);
      else {
        await sql.raw('DROP TRIGGER refuse_completion ON timeline').execute(store.db);
        await sql.raw('DROP FUNCTION refuse_completion()').execute(store.db);
      }
    };
  }

  it('a message that went is said to have gone when the row cannot be moved on after it (P-complete-4)', async () => {
    smtp.setMode('accept');
    const { deskId, row, draft, owner } = await rowWithDraft('Send the notice', 'agent@fill.test');
    const allow = await refuseCompletionOf(row.id);
    try {
      const said = await completeWork(owner, row.id, { note });
      expect(said).toMatchObject({ id: row.id, status: 'open', failed: false, delivered: true });
      expect(said.delivery_note).toMatch(new RegExp(`${NOT_RECORDED.replace(/[()]/g, '\\$&')}$`));
    } finally {
      await allow();
    }
    expect((await messagesOf(store.db, deskId, row.id)).map((m) => [m.id, m.status])).toEqual([[draft.id, 'sent']]);
    expect(smtp.received.filter((m) => m.to.includes('agent@fill.test'))).toHaveLength(1);
    // Completed again, the step is recorded, and nothing is sent a second time.
    const again = await completeWork(owner, row.id, {});
    expect(again).toMatchObject({ failed: false, delivered: false });
    expect(['waiting', 'done']).toContain(again.status);
    expect(smtp.received.filter((m) => m.to.includes('agent@fill.test'))).toHaveLength(1);
  });
});
