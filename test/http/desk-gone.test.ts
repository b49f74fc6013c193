import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext } from '../../src/domain/context.ts';
import { deleteDesk } from '../../src/domain/desks/manage.ts';
import { completeWork } from '../../src/domain/work/complete.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox } from './writes-helpers.ts';

// The owner deletes a desk (`desk desks delete`) while a program's complete or run is sending
// a message from it: the mail server has the message, and the desk's rows are gone before its
// answer comes. The program is told what any later request with its key is told, 403 no_desk,
// not a fault at the desk end.

describe.each(DIALECTS)('a desk deleted while its message is being sent ($name)', ({ open }) => {
  let store: TestStore;
  let smtp: TestSmtp;
  let h: Harness;
  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await store?.close();
  });

  for (const verb of ['complete', 'run'] as const) {
    it(`POST /work/{id}/${verb} answers 403 no_desk`, async () => {
      const d = await makeDesk(store.db, { grants: ['reach_out'] });
      await connectMailbox(store.db, d.desk.id, smtp.port);
      const to = `${verb}@gone.test`;
      const row = await makeWork(store.db, d.desk.id, { class: 'reach_out', contact_email: to });
      await makeDraft(store.db, d.desk.id, row.id, { to });
      const held = smtp.holdNextAnswer();
      const answer = h.call('POST', `/api/v1/work/${row.id}/${verb}`, { key: d.key, body: {} });
      await held.taken;
      await deleteDesk(store.db, d.desk.id);
      held.answer();
      const res = await answer;
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('no_desk');
      expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
      expect(await store.db.selectFrom('work').select('id').where('desk_id', '=', d.desk.id).execute()).toEqual([]);
    });
  }

  it("the owner's complete from the screen or the CLI is told in the owner's words", async () => {
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    const to = 'owner@gone.test';
    const row = await makeWork(store.db, d.desk.id, { class: 'reach_out', contact_email: to });
    await makeDraft(store.db, d.desk.id, row.id, { to });
    const owner = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' });
    const held = smtp.holdNextAnswer();
    const completing = completeWork(owner, row.id, {});
    await held.taken;
    await deleteDesk(store.db, d.desk.id);
    held.answer();
    await expect(completing).rejects.toMatchObject({
      code: 'no_desk',
      message: expect.stringMatching(/^This desk was deleted while the change was being made/),
    });
  });
});
