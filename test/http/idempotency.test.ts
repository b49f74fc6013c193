import { refuse } from '../helpers/refuse.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, reopenStore, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { connectMailbox, eventsOf, messagesOf } from './writes-helpers.ts';

// D25: idempotency records live in the database, per desk, for 24 hours.

describe.each(DIALECTS)('idempotent writes ($name)', ({ name, open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  const snooze = (id: number, key: string | null, body: unknown = { days: 2 }, hh: Harness = h, deskKey = d.key) =>
    hh.call('POST', `/api/v1/work/${id}/snooze`, {
      key: deskKey,
      body,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const dueOf = async (id: number) => (await findWork(store.db, d.desk.id, id))!.due_date;

  beforeAll(async () => {
    store = await open();
    h = await harness(store, { config: { mailTimeoutMs: 1500 } });
    d = await makeDesk(store.db);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('a replayed snooze moves the date once and says it is a replay; api_write is logged once', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01', priority: 50 });
    const first = await snooze(row.id, 'snooze-once');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.json().data.due_date).toBe('2026-12-03');
    const second = await snooze(row.id, 'snooze-once', { days: 30 });
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await dueOf(row.id)).toBe('2026-12-03');
    expect((await eventsOf(store.db, d.desk.id, 'snoozed')).filter((e) => e.data.work_id === row.id)).toHaveLength(1);
    const writes = (await eventsOf(store.db, d.desk.id, 'api_write')).filter(
      (e) => e.message === `POST /api/v1/work/${row.id}/snooze`,
    );
    expect(writes).toHaveLength(1);
    expect(writes[0]!.data).toEqual({ key_prefix: d.prefix, key_id: d.keyId, status: 200 });
  });

  it('two Idempotency-Key headers are refused, and nothing is done or kept under either key', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const twice = await h.app.inject({
      method: 'POST',
      url: `/api/v1/work/${row.id}/snooze`,
      headers: {
        authorization: `Bearer ${d.key}`,
        'content-type': 'application/json',
        'idempotency-key': ['k1', 'k2'],
      },
      payload: { days: 2 },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toEqual({
      code: 'bad_request',
      message: 'Send one Idempotency-Key header; this request has more than one, and a retry must send the same key.',
    });
    expect(await dueOf(row.id)).toBe('2026-12-01');
    const kept = await store.db.selectFrom('idempotency').select('key').where('desk_id', '=', d.desk.id).execute();
    expect(kept.map((k) => k.key)).not.toEqual(expect.arrayContaining([expect.stringMatching(/k1|k2/)]));
    // One of them alone is a key like any other.
    expect((await snooze(row.id, 'k1')).json().data.due_date).toBe('2026-12-03');
  });

  it('every 2xx write without a key is performed and logged as api_write; 4xx answers are not', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    await snooze(row.id, null);
    await snooze(row.id, null);
    expect(await dueOf(row.id)).toBe('2026-12-05');
    expect((await snooze(row.id, null, { days: 0 })).statusCode).toBe(400);
    expect((await snooze(999999, null)).statusCode).toBe(404);
    const writes = (await eventsOf(store.db, d.desk.id, 'api_write')).filter(
      (e) => e.message === `POST /api/v1/work/${row.id}/snooze`,
    );
    expect(writes).toHaveLength(2);
    expect((await eventsOf(store.db, d.desk.id, 'api_write')).some((e) => e.message.includes('999999'))).toBe(false);
  });

  it('an empty Idempotency-Key is no key: each write runs (P-idempotency-4)', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    for (const _ of [1, 2]) {
      const r = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
        key: d.key,
        body: { days: 2 },
        headers: { 'idempotency-key': '' },
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await dueOf(row.id)).toBe('2026-12-05');
  });

  it('a key reused on another route replays the first answer byte for byte, never a 500', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01', contact_email: 'x@example.test' });
    const chat = await h.call('POST', '/api/v1/chat', {
      key: d.key,
      body: { text: 'what is overdue?' },
      headers: { 'idempotency-key': 'shared-k1' },
    });
    expect(chat.statusCode).toBe(200);
    // Sent past the harness: the replayed chat answer is not the draft route's shape, by design.
    for (const url of [`/api/v1/work/${row.id}/draft`, '/api/v1/work/abc/draft', '/api/v1/arrangements/1/notes']) {
      const again = await h.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${d.key}`, 'idempotency-key': 'shared-k1' },
      });
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['content-type']).toBe(chat.headers['content-type']);
      expect(again.body).toBe(chat.body);
    }
    expect(await messagesOf(store.db, d.desk.id, row.id)).toEqual([]);
  });

  it('a 4xx answer is stored and replayed with its status', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const bad = await snooze(row.id, 'bad-days', { days: 0 });
    expect(bad.statusCode).toBe(400);
    const replay = await snooze(row.id, 'bad-days', { days: 2 });
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(bad.json());
    expect(await dueOf(row.id)).toBe('2026-12-01');
  });

  it('a body that cannot be read, sent again under an answered key, gets the first answer back', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const first = await snooze(row.id, 'then-garbled');
    expect(first.statusCode).toBe(200);
    const unread = ['{"days": 2', '{"days":2,"x":"\\u0000"}', '{"x":"\\ud800"}', `{"pad":"${'x'.repeat(1_100_000)}"}`];
    for (const payload of unread) {
      const res = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
        key: d.key,
        payload,
        headers: { 'idempotency-key': 'then-garbled', 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload.slice(0, 30)).toBe(200);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.body).toBe(first.body);
    }
    expect(await dueOf(row.id)).toBe('2026-12-03');
  });

  it('a body that cannot be read under a fresh key is refused and leaves the key free', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const refused = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
      key: d.key,
      payload: '{"days": 2',
      headers: { 'idempotency-key': 'garbled-first', 'content-type': 'application/json' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    const then = await snooze(row.id, 'garbled-first');
    expect(then.statusCode).toBe(200);
    expect(then.headers['idempotent-replayed']).toBeUndefined();
    expect(await dueOf(row.id)).toBe('2026-12-03');
  });

  it('keys are scoped to the desk and only the first 200 characters count', async () => {
    const other = await makeDesk(store.db);
    const mine = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const theirs = await makeWork(store.db, other.desk.id, { due_date: '2026-12-01' });
    await snooze(mine.id, 'shared-key');
    const res = await snooze(theirs.id, 'shared-key', { days: 2 }, h, other.key);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect((await findWork(store.db, other.desk.id, theirs.id))!.due_date).toBe('2026-12-03');

    const long = 'k'.repeat(200);
    const a = await snooze(mine.id, `${long}-first`);
    const b = await snooze(mine.id, `${long}-second`);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json()).toEqual(a.json());
  });

  it('a key written in UTF-8 counts its characters, not its bytes', async () => {
    // Node reads header bytes as Latin-1: this is how a UTF-8 key arrives at the route.
    const asSent = (key: string) => Buffer.from(key, 'utf8').toString('latin1');
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    // Two keys of 101 characters (202 bytes) that differ in their last character.
    const a = await snooze(row.id, asSent(`${'é'.repeat(100)}A`));
    const b = await snooze(row.id, asSent(`${'é'.repeat(100)}B`));
    expect(a.headers['idempotent-replayed']).toBeUndefined();
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(await dueOf(row.id)).toBe('2026-12-05');
    // The 200th character is a whole character, even outside the Basic Multilingual Plane.
    const c = await snooze(row.id, asSent(`${'k'.repeat(199)}💥-first`));
    const e = await snooze(row.id, asSent(`${'k'.repeat(199)}💥-second`));
    expect(e.headers['idempotent-replayed']).toBe('true');
    expect(e.json()).toEqual(c.json());
    expect(await dueOf(row.id)).toBe('2026-12-07');
  });

  it('a record expires after 24 hours', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    await snooze(row.id, 'day-old');
    h.clock.advance(24 * 60 * 60 * 1000 + 1000);
    try {
      const res = await snooze(row.id, 'day-old');
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await dueOf(row.id)).toBe('2026-12-05');
    } finally {
      h.clock.set('2026-11-22T10:00:00.000Z');
    }
  });

  it('a claim left pending by a process that died is taken over once its lease has passed', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const now = h.clock.now().getTime();
    const { runTimeoutMs, chatTimeoutMs, mailTimeoutMs } = h.deps.config;
    const lease = Math.max(runTimeoutMs, chatTimeoutMs, mailTimeoutMs) + 60_000;
    const claim = (key: string, ageMs: number) =>
      store.db
        .insertInto('idempotency')
        .values({
          desk_id: d.desk.id,
          key,
          state: 'pending',
          http_status: null,
          body: null,
          created_at: new Date(now - ageMs).toISOString(),
          expires_at: new Date(now - ageMs + 24 * 60 * 60 * 1000).toISOString(),
        })
        .execute();
    await claim('died-holding', lease + 1000);
    const res = await snooze(row.id, 'died-holding');
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await dueOf(row.id)).toBe('2026-12-03');
    // The answer is kept under the key: the next call replays it.
    const again = await snooze(row.id, 'died-holding', { days: 9 });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(res.json());
    expect(await dueOf(row.id)).toBe('2026-12-03');
  });

  it('calls waiting on a claim whose process died: one takes the key over, and the rest wait for its answer', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const start = h.clock.now().getTime();
    const { runTimeoutMs, chatTimeoutMs, mailTimeoutMs } = h.deps.config;
    const lease = Math.max(runTimeoutMs, chatTimeoutMs, mailTimeoutMs) + 60_000;
    // Claimed a moment ago by a process that then died: the calls after it wait.
    await store.db
      .insertInto('idempotency')
      .values({
        desk_id: d.desk.id,
        key: 'died-while-others-wait',
        state: 'pending',
        http_status: null,
        body: null,
        created_at: new Date(start - 100).toISOString(),
        expires_at: new Date(start - 100 + 24 * 60 * 60 * 1000).toISOString(),
      })
      .execute();
    try {
      const waiting = Array.from({ length: 6 }, () => snooze(row.id, 'died-while-others-wait'));
      await new Promise((r) => setTimeout(r, 200));
      // The lease runs out for the dead claim as it does for the calls that came just after it.
      h.clock.advance(lease + 1000);
      const answers = await Promise.all(waiting);
      expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
      expect(answers.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      for (const a of answers) expect(a.json()).toEqual(answers[0]!.json());
      // Snoozed once, by 2 days.
      expect(await dueOf(row.id)).toBe('2026-12-03');
    } finally {
      h.clock.set('2026-11-22T10:00:00.000Z');
    }
  });

  it('the replay still holds after a restart (a new server on the same database)', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const first = await snooze(row.id, 'survives-restart');
    const reopened = await reopenStore(store.target);
    const h2 = await harness({ ...reopened, target: store.target });
    try {
      const again = await snooze(row.id, 'survives-restart', { days: 9 }, h2);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect(await dueOf(row.id)).toBe('2026-12-03');
    } finally {
      await h2.close();
      await reopened.close();
    }
  });

  // Registered on the PostgreSQL leg only: SQLite's embedded file has no second server.
  if (name === 'postgres')
    it('two servers on one PostgreSQL database share the records', async () => {
      const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
      const storeB = await reopenStore(store.target);
      const hB = await harness({ ...storeB, target: store.target });
      try {
        const [a, b] = await Promise.all([snooze(row.id, 'two-apps'), snooze(row.id, 'two-apps', { days: 2 }, hB)]);
        expect([a, b].filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
        expect(b.json()).toEqual(a.json());
        const c = await snooze(row.id, 'two-apps', { days: 2 }, hB);
        expect(c.headers['idempotent-replayed']).toBe('true');
        expect(await dueOf(row.id)).toBe('2026-12-03');
      } finally {
        await hB.close();
        await storeB.close();
      }
    });

  it('a second call while the first with its key is in flight waits for it and replays its answer', async () => {
    const smtp = await startSmtpServer({ mode: 'hang' });
    try {
      const desk = await makeDesk(store.db);
      await connectMailbox(store.db, desk.desk.id, smtp.port);
      const row = await makeWork(store.db, desk.desk.id, {
        title: 'Slow send',
        class: 'file',
        contact_email: 'slow@tax.test',
      });
      await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: desk.key, body: {} });
      const complete = () =>
        h.call('POST', `/api/v1/work/${row.id}/complete`, {
          key: desk.key,
          body: {},
          headers: { 'idempotency-key': 'slow-complete' },
        });
      const firstCall = complete();
      // Let the first call claim the key before the second arrives.
      for (let i = 0; i < 100; i++) {
        const claimed = await store.db
          .selectFrom('idempotency')
          .select('state')
          .where('desk_id', '=', desk.desk.id)
          .where('key', '=', 'slow-complete')
          .executeTakeFirst();
        if (claimed) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const [a, b] = await Promise.all([firstCall, complete()]);
      expect(a.headers['idempotent-replayed']).toBeUndefined();
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(b.json()).toEqual(a.json());
      expect(a.json().data).toMatchObject({ failed: true, delivered: false, status: 'open' });
      // Had the second call run, it would have found no draft and closed the row.
      expect((await findWork(store.db, desk.desk.id, row.id))!.status).toBe('open');
      expect((await messagesOf(store.db, desk.desk.id, row.id)).map((m) => m.status)).toEqual(['approved']);
      expect(
        (await eventsOf(store.db, desk.desk.id, 'api_write')).filter((e) => e.message.endsWith('/complete')),
      ).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  // P-speed-6: a write that only touches the store commits its work, its key's claim, its
  // stored answer and its api_write event together, or none of them.
  /** Makes the database refuse the api_write event, the last thing a write records. */
  const refuseApiWrites = () =>
    refuse(store.db, name, { name: 'refuse_api_write', table: 'events', on: 'INSERT', when: "NEW.kind = 'api_write'" });

  it('when the last record fails, the snooze, its event and its claim are all undone; a retry then works once', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01', priority: 50 });
    const allow = await refuseApiWrites();
    let failed: Awaited<ReturnType<typeof snooze>>;
    try {
      failed = await snooze(row.id, 'last-record-fails');
    } finally {
      await allow();
    }
    expect(failed.statusCode).toBe(500);
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ due_date: '2026-12-01', priority: 50 });
    expect((await eventsOf(store.db, d.desk.id, 'snoozed')).filter((e) => e.data.work_id === row.id)).toHaveLength(0);
    const held = await store.db
      .selectFrom('idempotency')
      .select('key')
      .where('key', '=', 'last-record-fails')
      .execute();
    expect(held).toHaveLength(0);

    const retry = await snooze(row.id, 'last-record-fails');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().data).toMatchObject({ due_date: '2026-12-03', priority: 45 });
    const replay = await snooze(row.id, 'last-record-fails');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ due_date: '2026-12-03', priority: 45 });
  });

  it('when a write that waits on the world is done but its event cannot be kept, it answers what it did, and a retry replays it', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Close the ledger' });
    const complete = () =>
      h.call('POST', `/api/v1/work/${row.id}/complete`, {
        key: d.key,
        headers: { 'idempotency-key': 'answer-kept-alone' },
        body: { note: 'Closed.' },
      });
    const allow = await refuseApiWrites();
    let first: Awaited<ReturnType<typeof complete>>;
    try {
      first = await complete();
    } finally {
      await allow();
    }
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ id: row.id, status: 'done' });
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'done' });
    const kept = await store.db
      .selectFrom('idempotency')
      .select(['http_status'])
      .where('key', '=', 'answer-kept-alone')
      .execute();
    expect(kept).toEqual([{ http_status: 200 }]);
    const retry = await complete();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
  });

  it('two calls with one key at once: one does the work, the other replays it', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01', priority: 50 });
    const [a, b] = await Promise.all([snooze(row.id, 'same-moment'), snooze(row.id, 'same-moment')]);
    expect([a, b].map((r) => r.statusCode)).toEqual([200, 200]);
    expect([a, b].filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
    expect(b.json()).toEqual(a.json());
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ due_date: '2026-12-03', priority: 45 });
    const writes = (await eventsOf(store.db, d.desk.id, 'api_write')).filter(
      (e) => e.message === `POST /api/v1/work/${row.id}/snooze`,
    );
    expect(writes).toHaveLength(1);
  });

  it('a refusal under a key is stored and replayed, and changes nothing', async () => {
    const missing = await snooze(987654, 'not-here');
    expect(missing.statusCode).toBe(404);
    const again = await snooze(987654, 'not-here');
    expect(again.statusCode).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(missing.body);
  });

  it('different keys are not a lock: both run', async () => {
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const [a, b] = await Promise.all([snooze(row.id, 'intent-a'), snooze(row.id, 'intent-b')]);
    expect(a.headers['idempotent-replayed']).toBeUndefined();
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(await dueOf(row.id)).toBe('2026-12-05');
  });
});

describe.each(DIALECTS)('a write that fails at the desk end ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('answers 500, stores no answer under its key, writes nothing and logs no api_write', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01', priority: 50 });
    // The desk log's timeline table going missing is a fault at the desk end.
    const eventsBefore = (await eventsOf(store.db, d.desk.id)).length;
    await sql`DROP TABLE timeline`.execute(store.db);
    const call = () =>
      h.call('POST', `/api/v1/work/${row.id}/snooze`, {
        key: d.key,
        body: { days: 2 },
        headers: { 'idempotency-key': 'will-fail' },
      });
    const res = await call();
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(await store.db.selectFrom('idempotency').selectAll().where('key', '=', 'will-fail').execute()).toHaveLength(
      0,
    );
    const row2 = await findWork(store.db, d.desk.id, row.id);
    expect(row2).toMatchObject({ due_date: '2026-12-01', priority: 50 });
    expect(await eventsOf(store.db, d.desk.id)).toHaveLength(eventsBefore);
    const retry = await call();
    expect(retry.statusCode).toBe(500);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });
});
