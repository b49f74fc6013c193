import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIME_MS } from '../../src/http/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { countOpenWork, findWork } from '../../src/store/repositories/work.ts';
import { deskContext } from '../../src/domain/context.ts';
import { runWork } from '../../src/domain/work/run.ts';
import { connectMailbox, eventsOf, itemOf, messagesOf, timelineOf } from './writes-helpers.ts';
import { makeLoginConnection, makePlaybook, openCount, reportsOf, runsOf, storedText } from './run-helpers.ts';

// POST /work/{id}/run without a browser: the grant, the refusals, and the runs that send mail.
// The playbook runs against a real portal and Chromium are in run-playbook.test.ts.

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

describe.each(DIALECTS)('POST /work/{id}/run ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: Smtp;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  const run = (id: number | string, opts: { key?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    h.call('POST', `/api/v1/work/${id}/run`, { key: opts.key ?? d.key, headers: opts.headers ?? {}, body: opts.body });
  const sentTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
  const runEvents = async (workId: number) =>
    (await eventsOf(store.db, d.desk.id)).filter((e) => e.data.work_id === workId).map((e) => e.kind);

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'accept' });
    h = await harness(store, { config: { mailTimeoutMs: 1500 } });
    d = await makeDesk(store.db, { name: 'Corner Bakery Ltd', grants: ['reach_out', 'chase', 'file', 'commit'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await store?.close();
  });

  it('answers 404 for ids that are not a row on this desk', async () => {
    const other = await makeDesk(store.db, { grants: ['file'] });
    const theirs = await makeWork(store.db, other.desk.id, { class: 'file', contact_email: 'x@y.test' });
    for (const id of [999999, 'abc', 0, theirs.id]) {
      const res = await run(id);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      expect(res.json().error.message).toContain('work item');
    }
  });

  it('refuses with 403 not_permitted naming the class whenever allowed is false, and nothing substitutes for the grant', async () => {
    const bare = await makeDesk(store.db); // no grants at all
    const cases: Array<{ deskKey: string; deskId: string; cls: string | null }> = [
      { deskKey: bare.key, deskId: bare.desk.id, cls: 'file' },
      { deskKey: bare.key, deskId: bare.desk.id, cls: 'reach_out' },
      { deskKey: d.key, deskId: d.desk.id, cls: 'money' },
      { deskKey: d.key, deskId: d.desk.id, cls: 'sign' },
      { deskKey: d.key, deskId: d.desk.id, cls: null },
    ];
    for (const c of cases) {
      const row = await makeWork(store.db, c.deskId, {
        title: `Class ${c.cls}`,
        class: c.cls,
        contact_email: 'someone@example.test',
      });
      await makeDraft(store.db, c.deskId, row.id, { to: 'someone@example.test' });
      expect((await itemOf(store.db, c.deskId, row.id)).allowed).toBe(false);
      for (const attempt of [
        {},
        {
          headers: { 'x-desk-permission': String(c.cls), 'x-allowed': 'true' },
          body: { allowed: true, permission: c.cls, force: true },
        },
      ]) {
        const res = await run(row.id, { key: c.deskKey, ...attempt });
        expect(res.statusCode, `class ${c.cls}`).toBe(403);
        const err = res.json().error;
        expect(err.code).toBe('not_permitted');
        expect(err.details).toEqual({ permission: c.cls });
        expect(err.message.length).toBeGreaterThan(0);
      }
      const after = await findWork(store.db, c.deskId, row.id);
      expect(after).toMatchObject({ status: 'open', last_error: null });
      expect((await messagesOf(store.db, c.deskId, row.id)).map((m) => m.status)).toEqual(['drafted']);
      expect(await runsOf(store.db, c.deskId, row.id)).toHaveLength(0);
    }
    expect(sentTo('someone@example.test')).toHaveLength(0);
    // The same row with its class granted is not refused.
    const granted = await makeWork(store.db, d.desk.id, { class: 'file', contact_email: 'granted@example.test' });
    expect((await itemOf(store.db, d.desk.id, granted.id)).allowed).toBe(true);
    expect((await run(granted.id)).statusCode).toBe(200);
  });

  it('answers ok: false with a reason, writing nothing, when the row needs a person, is finished, has no way to act, or is waiting', async () => {
    const rows = {
      person: await makeWork(store.db, d.desk.id, {
        title: 'Inspect the oven',
        class: 'commit',
        needs_person: 1,
        contact_email: 'oven@example.test',
      }),
      done: await makeWork(store.db, d.desk.id, {
        title: 'Filed already',
        class: 'file',
        status: 'done',
        contact_email: 'done@example.test',
        closed_at: '2026-11-20T10:00:00.000Z',
      }),
      closed: await makeWork(store.db, d.desk.id, {
        title: 'Closed by the owner',
        class: 'file',
        status: 'closed',
        contact_email: 'closed@example.test',
      }),
      noway: await makeWork(store.db, d.desk.id, { title: 'Nobody named', class: 'file', contact_name: 'Someone' }),
      waiting: await makeWork(store.db, d.desk.id, {
        title: 'Quote from Sam',
        class: 'chase',
        status: 'waiting',
        contact_name: 'Sam Oven',
        contact_email: 'sam@ovens.test',
        waiting_on: 'Sam Oven',
        waiting_since: '2026-11-20T09:00:00.000Z',
        chase_after_days: 7,
      }),
    };
    const before = await Promise.all(Object.values(rows).map((r) => findWork(store.db, d.desk.id, r.id)));
    const openBefore = await openCount(store.db, d.desk.id);

    const answers: Record<string, any> = {};
    for (const [name, row] of Object.entries(rows)) {
      const res = await run(row.id);
      expect(res.statusCode, name).toBe(200);
      answers[name] = res.json().data;
      expect(answers[name]).toMatchObject({ ok: false, closed: false, activity_id: null, result: '' });
      expect(typeof answers[name].reason).toBe('string');
      expect(answers[name].reason.length).toBeGreaterThan(10);
      expect(answers[name].timed_out).toBeUndefined();
      expect(Number.isInteger(answers[name].ms)).toBe(true);
    }
    expect(answers.person.needs).toMatch(/person/);
    expect(answers.person.reason).toMatch(/only a person/);
    expect(answers.done.reason).toMatch(/already done/);
    expect(answers.closed.reason).toMatch(/already closed/);
    expect(answers.noway.needs).toMatch(/Somebody to write to, or a playbook/);
    expect(answers.noway.reason).toMatch(/no way to act/);
    expect(answers.waiting.waiting).toBe('Sam Oven');
    expect(answers.waiting.reason).toMatch(/Waiting on Sam Oven for 2 days; the desk chases after 7 days/);

    const after = await Promise.all(Object.values(rows).map((r) => findWork(store.db, d.desk.id, r.id)));
    expect(after).toEqual(before);
    expect(await openCount(store.db, d.desk.id)).toBe(openBefore);
    for (const row of Object.values(rows)) {
      expect(await messagesOf(store.db, d.desk.id, row.id)).toHaveLength(0);
      expect(await runsOf(store.db, d.desk.id, row.id)).toHaveLength(0);
      expect(await runEvents(row.id)).toEqual([]);
    }
    expect(sentTo('sam@ovens.test')).toHaveLength(0);
  });

  it('sends the prepared message of a row that expects no reply and closes it, with a report, events and timeline', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Confirm the delivery slot',
      class: 'commit',
      contact_name: 'Dan',
      contact_email: 'dan+run@mill.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, {
      subject: 'Delivery on Tuesday',
      body: 'Tuesday 8am suits us.',
      to: 'dan+run@mill.test',
    });
    expect((await itemOf(store.db, d.desk.id, row.id)).action).toMatchObject({ type: 'run', label: 'Run it now' });
    const openBefore = await openCount(store.db, d.desk.id);

    const res = await run(row.id);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ ok: true, closed: true, needs: null, waiting: null });
    expect(data.reason).toBeUndefined();
    expect(data.done).toBe('Sent "Delivery on Tuesday" to Dan <dan+run@mill.test>.');
    expect(data.outcome).toContain('is done');
    expect(Number.isInteger(data.activity_id)).toBe(true);

    expect(sentTo('dan+run@mill.test')).toHaveLength(1);
    expect(sentTo('dan+run@mill.test')[0]!.raw).toContain('Tuesday 8am suits us.');
    expect((await messagesOf(store.db, d.desk.id, row.id)).map((m) => m.status)).toEqual(['sent']);
    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after).toMatchObject({ status: 'done', last_error: null, waiting_on: null });
    expect(after!.closed_at).not.toBeNull();
    expect(await openCount(store.db, d.desk.id)).toBe(openBefore - 1);
    expect((await itemOf(store.db, d.desk.id, row.id)).action).toBeNull();

    const [report] = await reportsOf(store.db, d.desk.id, row.id);
    expect(report).toMatchObject({
      id: data.activity_id,
      kind: 'report',
      channel: 'run',
      direction: 'outbound',
      status: 'recorded',
      actor: 'desk',
      failure_reason: null,
    });
    expect(report!.subject).toBe('Run finished: Confirm the delivery slot');
    expect(report!.body).toContain(data.done);
    expect(await runEvents(row.id)).toEqual(['run_started', 'sent', 'run_finished']);
    const finished = (await eventsOf(store.db, d.desk.id, 'run_finished')).find((e) => e.data.work_id === row.id)!;
    expect(finished.data).toMatchObject({ activity_id: data.activity_id, status: 'done', closed: true });
    expect((await timelineOf(store.db, d.desk.id, row.id)).map((t) => t.kind)).toEqual(['sent', 'run_finished']);
    const [r] = await runsOf(store.db, d.desk.id, row.id);
    expect(r).toMatchObject({ status: 'finished', how: 'send', prior_status: 'open' });
    expect(JSON.parse(r!.report!)).toEqual(data);
  });

  it('a message that expects a reply leaves the row waiting on the recipient, not done', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask about the lease renewal',
      class: 'reach_out',
      contact_name: 'Priya Shah',
      contact_email: 'priya+run@landlord.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { subject: 'Lease renewal', to: 'priya+run@landlord.test' });
    const openBefore = await openCount(store.db, d.desk.id);
    const data = (await run(row.id)).json().data;
    expect(data).toMatchObject({ ok: true, closed: false, waiting: 'Priya Shah', needs: null });
    expect(data.outcome).toContain('now waiting on Priya Shah');
    expect(sentTo('priya+run@landlord.test')).toHaveLength(1);
    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after).toMatchObject({ status: 'waiting', waiting_on: 'Priya Shah', closed_at: null });
    expect(await openCount(store.db, d.desk.id)).toBe(openBefore);
    expect((await itemOf(store.db, d.desk.id, row.id)).action?.type).toBe('wait');
  });

  it('drafts and sends when the row has somebody to write to and no draft, through the same drafting as POST /draft', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Get the oven repair quote',
      class: 'chase',
      contact_name: 'Sam Oven',
      contact_email: 'sam+chase@ovens.test',
      waiting_on: 'Sam Oven',
      waiting_since: '2026-11-10T09:00:00.000Z',
      chase_after_days: 7,
    });
    expect((await itemOf(store.db, d.desk.id, row.id)).action?.type).toBe('nudge');
    const data = (await run(row.id)).json().data;
    expect(data).toMatchObject({ ok: true, closed: false, waiting: 'Sam Oven' });
    const mail = sentTo('sam+chase@ovens.test');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.raw).toContain('Get the oven repair quote');
    const [msg] = await messagesOf(store.db, d.desk.id, row.id);
    expect(msg).toMatchObject({ status: 'sent', actor: 'desk', to_address: 'sam+chase@ovens.test' });
    expect(await runEvents(row.id)).toEqual(['run_started', 'drafted', 'sent', 'run_finished']);
    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after!.status).toBe('waiting');
    expect(after!.waiting_since).not.toBe('2026-11-10T09:00:00.000Z');
    expect((await runsOf(store.db, d.desk.id, row.id))[0]).toMatchObject({ how: 'draft_send', status: 'finished' });

    // Asked again straight away, the desk does not chase a second time.
    const again = (await run(row.id)).json().data;
    expect(again).toMatchObject({ ok: false, waiting: 'Sam Oven', activity_id: null });
    expect(sentTo('sam+chase@ovens.test')).toHaveLength(1);
  });

  it('a refused send is a run that tried and failed: last_error set, row back to open, run_failed, report kept', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Book the chimney sweep',
      class: 'commit',
      contact_email: 'sweep+refuse@chimney.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { subject: 'Sweep booking', to: 'sweep+refuse@chimney.test' });
    smtp.setMode('refuse');
    let data: any;
    try {
      data = (await run(row.id)).json().data;
    } finally {
      smtp.setMode('accept');
    }
    expect(data).toMatchObject({ ok: false, closed: false, waiting: null });
    expect(data.reason).toMatch(/refused/);
    expect(data.needs).toMatch(/needing a look/);
    expect(data.timed_out).toBeUndefined();
    const after = await findWork(store.db, d.desk.id, row.id);
    expect(after!.status).toBe('open');
    expect(after!.last_error).toBe(data.reason);
    expect((await itemOf(store.db, d.desk.id, row.id)).action?.type).toBe('fix');
    expect((await messagesOf(store.db, d.desk.id, row.id)).map((m) => m.status)).toEqual(['approved']);
    const [report] = await reportsOf(store.db, d.desk.id, row.id);
    expect(report).toMatchObject({
      id: data.activity_id,
      subject: 'Run failed: Book the chimney sweep',
      failure_reason: data.reason,
    });
    expect(await runEvents(row.id)).toEqual(['run_started', 'send_failed', 'run_failed']);
    const failed = (await eventsOf(store.db, d.desk.id, 'run_failed')).find((e) => e.data.work_id === row.id)!;
    expect(failed.data).toMatchObject({ timed_out: false, changed: true, reason: data.reason });
    expect(sentTo('sweep+refuse@chimney.test')).toHaveLength(0);

    // D13: a fix row runs again by drafting a fresh message; success clears last_error.
    const retry = (await run(row.id)).json().data;
    expect(retry).toMatchObject({ ok: true, closed: true });
    expect(sentTo('sweep+refuse@chimney.test')).toHaveLength(1);
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'done', last_error: null });
  });

  it('concurrent runs on one row send its message once and leave status and open_count exact', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Chase the invoice copy',
      class: 'chase',
      contact_name: 'Ana',
      contact_email: 'ana+runrace@supplier.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { subject: 'Invoice copy', to: 'ana+runrace@supplier.test' });
    const answers = (await Promise.all([1, 2, 3, 4].map(() => run(row.id)))).map((r) => {
      expect(r.statusCode).toBe(200);
      return r.json().data;
    });
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    for (const a of answers.filter((x) => !x.ok)) {
      expect(a.reason).toMatch(/already sending|already|waiting/i);
      expect(a.activity_id).toBeNull();
    }
    expect(sentTo('ana+runrace@supplier.test')).toHaveLength(1);
    expect((await messagesOf(store.db, d.desk.id, row.id)).map((m) => m.status)).toEqual(['sent']);
    expect((await findWork(store.db, d.desk.id, row.id))!.status).toBe('waiting');
    expect(await openCount(store.db, d.desk.id)).toBe(await countOpenWork(store.db, d.desk.id));
    expect((await runsOf(store.db, d.desk.id, row.id)).every((r) => r.status !== 'running')).toBe(true);
  });

  it('a repeated run with the same Idempotency-Key returns the first answer and sends nothing more', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Order more flour',
      class: 'commit',
      contact_email: 'mill+idem@flour.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { subject: 'Flour order', to: 'mill+idem@flour.test' });
    const headers = { 'idempotency-key': `run-once-${row.id}` };
    const [a, b] = await Promise.all([run(row.id, { headers }), run(row.id, { headers })]);
    const c = await run(row.id, { headers });
    expect(a.json()).toEqual(b.json());
    expect(c.json()).toEqual(a.json());
    expect(c.headers['idempotent-replayed']).toBe('true');
    expect(a.json().data).toMatchObject({ ok: true, closed: true });
    expect(sentTo('mill+idem@flour.test')).toHaveLength(1);
    expect(await runsOf(store.db, d.desk.id, row.id)).toHaveLength(1);
    expect(
      (await eventsOf(store.db, d.desk.id, 'api_write')).filter((e) => e.message === `POST /api/v1/work/${row.id}/run`),
    ).toHaveLength(1);
  });
});

describe.each(DIALECTS)('POST /work/{id}/run on a fault at the desk end ($name)', ({ open }) => {
  it('puts the row back, records the run as stopped, answers 500 and lets the same key try again', async () => {
    const store = await open();
    // A runner that breaks (the real one never throws): the one fault a test cannot cause for real.
    const h = await harness(store, {
      engine: {
        runner: {
          available: () => true,
          run: async () => Promise.reject(new Error('browser crashed while typing s3cret')),
        },
      },
    });
    try {
      const d = await makeDesk(store.db, { grants: ['file'] });
      const conn = await makeLoginConnection(store.db, d.desk.id, { username: 'bakery', password: 's3cret' });
      const pb = await makePlaybook(store.db, d.desk.id, 'breaks', [{ goto: 'http://127.0.0.1:9/' }], conn.id);
      const row = await makeWork(store.db, d.desk.id, {
        title: 'File it',
        class: 'file',
        playbook_id: pb.id,
        status: 'waiting',
      });
      const headers = { 'idempotency-key': 'fault-once' };
      const res = await h.call('POST', `/api/v1/work/${row.id}/run`, { key: d.key, headers });
      expect(res.statusCode).toBe(500);
      expect(res.json().error.code).toBe('internal_error');
      expect(await findWork(store.db, d.desk.id, row.id)).toEqual(row);
      expect((await runsOf(store.db, d.desk.id, row.id)).map((r) => r.status)).toEqual(['stopped']);
      expect(await reportsOf(store.db, d.desk.id, row.id)).toHaveLength(0);
      expect(await storedText(store.db, d.desk.id)).not.toContain('s3cret');
      // 5xx answers are not stored: the same key runs again.
      expect((await h.call('POST', `/api/v1/work/${row.id}/run`, { key: d.key, headers })).statusCode).toBe(500);
      expect(await runsOf(store.db, d.desk.id, row.id)).toHaveLength(2);
      // What goes to the server log is the verb's error, masked like everything else.
      const err = await runWork(deskContext(h.deps, d.desk, { type: 'owner', name: 'Owner' }), row.id).catch(
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toBe('browser crashed while typing ***');
    } finally {
      await h.close();
      await store.close();
    }
  });
});

describe('the HTTP path never cuts a long run short', () => {
  it("the server has no connection or handler time limit; only a request's arrival is timed", async () => {
    const { sqliteStore } = await import('../helpers/db.ts');
    const store = await sqliteStore();
    const h = await harness(store);
    try {
      // Node counts this to the request's last byte, never over its answer (test/http/unreadable.test.ts).
      expect(h.app.server.requestTimeout).toBe(REQUEST_TIME_MS);
      expect(h.app.server.timeout).toBe(0);
      expect((h.app.initialConfig as { handlerTimeout?: number }).handlerTimeout).toBe(0);
      expect(h.app.initialConfig.connectionTimeout).toBe(0);
    } finally {
      await h.close();
      await store.close();
    }
  });
});
