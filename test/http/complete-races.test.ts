import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { connectMailbox, messagesOf } from './writes-helpers.ts';

// Complete, draft and complete again raced on one row. Whichever order the requests fall in,
// the row ends as some order of them one at a time would leave it: never done with a message
// still drafted, never done under a send, and no note lost.

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
const ROUNDS = 12;

describe.each(DIALECTS)('complete raced with draft and complete ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: Smtp;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  // A desk whose mail server is gone: a send fails at once, inside the other call's checks.
  let gone: Awaited<ReturnType<typeof makeDesk>>;
  const post = (path: string, body?: unknown, key = d.key) => h.call('POST', `/api/v1${path}`, { key, body });

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'accept' });
    h = await harness(store, { config: { mailTimeoutMs: 1500 } });
    d = await makeDesk(store.db, { name: 'Racing Rows Ltd' });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    gone = await makeDesk(store.db, { name: 'Gone Server Ltd' });
    const closed = await startSmtpServer();
    await closed.close();
    await connectMailbox(store.db, gone.desk.id, closed.port);
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
    await store.close();
  });

  const row = (n: number, tag: string, deskId = d.desk.id) =>
    makeWork(store.db, deskId, { title: `Ask supplier ${tag} ${n}`, contact_email: `s${n}+${tag}@supplier.test` });

  it('a draft and a complete at once leave no drafted message on a finished row', async () => {
    smtp.setMode('accept');
    for (let n = 0; n < ROUNDS; n++) {
      const r = await row(n, 'dc');
      const [drafted, completed] = await Promise.all([post(`/work/${r.id}/draft`), post(`/work/${r.id}/complete`, {})]);
      expect(drafted.statusCode).toBe(200);
      expect(completed.statusCode).toBe(200);
      const after = await findWork(store.db, d.desk.id, r.id);
      const statuses = (await messagesOf(store.db, d.desk.id, r.id)).map((m) => m.status);
      if (after!.status === 'open') expect(statuses).toEqual(['drafted']);
      else expect(statuses).not.toContain('drafted');
      // The draft came first and complete sent it, or complete came first and draft declined.
      if (drafted.json().data.drafted === false) expect(statuses).toEqual([]);
    }
  });

  it('two completes at once over a send that fails: the first answers the row open, the second keeps it open or closes it after the failure', async () => {
    for (let n = 0; n < ROUNDS * 2; n++) {
      const r = await row(n, 'cc', gone.desk.id);
      expect((await post(`/work/${r.id}/draft`, undefined, gone.key)).json().data.drafted).toBe(true);
      const answers = (
        await Promise.all([
          post(`/work/${r.id}/complete`, { note: 'a' }, gone.key),
          post(`/work/${r.id}/complete`, { note: 'b' }, gone.key),
        ])
      ).map((res) => res.json().data);
      const after = (await findWork(store.db, gone.desk.id, r.id))!;
      const failed = answers.find((a) => a.failed);
      expect(failed, JSON.stringify(answers)).toBeDefined();
      // The call that tried to send answers with the row as its failure left it: still open.
      expect(failed.status).toBe('open');
      const other = answers.find((a) => a !== failed);
      if (after.status === 'done') {
        // The other complete came after the failure and closed the row by hand, saying so.
        expect(other.delivery_note).toMatch(/^Nothing was sent: the message that failed before/);
        expect(after.last_error).toBeNull();
        expect(after.detail?.split('\n\n').sort()).toEqual(['a', 'b']);
      } else {
        expect(after.status).toBe('open');
        expect(after.last_error).not.toBeNull();
        expect(other.failed).toBe(false);
        expect(other.delivery_note).toMatch(/already sending/);
      }
    }
  });

  it('several completes at once with one note over a send that fails keep the note once', async () => {
    for (let n = 0; n < ROUNDS; n++) {
      const r = await row(n, 'same', gone.desk.id);
      expect((await post(`/work/${r.id}/draft`, undefined, gone.key)).json().data.drafted).toBe(true);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => post(`/work/${r.id}/complete`, { note: 'same note' }, gone.key)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
      expect(answers.filter((a) => a.json().data.failed)).toHaveLength(1);
      expect((await findWork(store.db, gone.desk.id, r.id))!.detail).toBe('same note');
    }
  });
});
