import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { PORTAL_PASSWORD, PORTAL_USER, startPortal, type Portal } from '../helpers/portal.ts';
import { chromiumAvailable } from '../../src/adapters/chromium/runner.ts';
import { deskContext } from '../../src/domain/context.ts';
import { runWork } from '../../src/domain/work/run.ts';
import { countOpenWork, findWork } from '../../src/store/repositories/work.ts';
import type { WorkRow } from '../../src/store/schema.ts';
import { eventsOf, itemOf, timelineOf } from './writes-helpers.ts';
import {
  makeLoginConnection,
  makePlaybook,
  openCount,
  reportsOf,
  runsOf,
  storedText,
  vatSteps,
} from './run-helpers.ts';

// POST /work/{id}/run driving a playbook: a loopback portal (test/helpers/portal.ts) and the
// system's real Chromium. Skipped, with one line saying so, where Chromium is absent.

const CHROMIUM = process.env.DESK_CHROMIUM_PATH || '/usr/bin/chromium';
const available = chromiumAvailable(CHROMIUM);
if (!available)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the run playbook tests (set DESK_CHROMIUM_PATH).`);

describe.each(DIALECTS)('POST /work/{id}/run with a playbook ($name)', ({ open }) => {
  let store: TestStore;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  let connectionId: number;

  beforeAll(async () => {
    store = await open();
    d = await makeDesk(store.db, { name: 'Corner Bakery Ltd', grants: ['file'] });
    connectionId = (await makeLoginConnection(store.db, d.desk.id)).id;
  });
  afterAll(async () => {
    await store?.close();
  });

  const runVia = (hh: Harness, id: number, headers: Record<string, string> = {}) =>
    hh.call('POST', `/api/v1/work/${id}/run`, { key: d.key, headers });
  const kindsFor = async (workId: number) =>
    (await eventsOf(store.db, d.desk.id)).filter((e) => e.data.work_id === workId).map((e) => e.kind);

  it('with no browser on the machine answers ok: false saying so, and changes nothing', async () => {
    const h = await harness(store, { config: { chromiumPath: '/nonexistent/chromium' } });
    try {
      const pb = await makePlaybook(store.db, d.desk.id, 'no-browser', vatSteps('http://127.0.0.1:9'), connectionId);
      const row = await makeWork(store.db, d.desk.id, {
        title: 'File the return',
        class: 'file',
        due_date: '2026-11-21',
        playbook_id: pb.id,
      });
      const res = await runVia(h, row.id);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ ok: false, closed: false, activity_id: null, result: '' });
      expect(data.reason).toBe(
        'No browser is available on this machine (looked for /nonexistent/chromium); set DESK_CHROMIUM_PATH.',
      );
      expect(data.needs).toMatch(/browser/);
      expect(data.timed_out).toBeUndefined();
      expect(await findWork(store.db, d.desk.id, row.id)).toEqual(row);
      expect(await reportsOf(store.db, d.desk.id, row.id)).toHaveLength(0);
      expect(await timelineOf(store.db, d.desk.id, row.id)).toHaveLength(0);
      expect(await kindsFor(row.id)).toEqual(['run_started', 'run_failed']);
      expect((await runsOf(store.db, d.desk.id, row.id))[0]).toMatchObject({ how: 'playbook', status: 'stopped' });
    } finally {
      await h.close();
    }
  });

  // Real browsers on a shared machine: allow each test more than the default.
  describe.skipIf(!available)('against a loopback portal in real Chromium', { timeout: 90_000 }, () => {
    let portal: Portal;
    let h: Harness;
    let vat: number;
    const vatRow = (over: Partial<WorkRow> = {}) =>
      makeWork(store.db, d.desk.id, {
        title: 'File VAT return',
        kind: 'filing',
        class: 'file',
        due_date: '2026-11-21',
        priority: 80,
        playbook_id: vat,
        ...over,
      });

    beforeAll(async () => {
      portal = await startPortal();
      h = await harness(store, { config: { chromiumPath: CHROMIUM } });
      vat = (await makePlaybook(store.db, d.desk.id, 'file-vat-return', vatSteps(portal.url), connectionId)).id;
    });
    afterAll(async () => {
      await h?.close();
      await portal?.close();
    });
    beforeEach(() => portal.setMode('accept'));

    it('keeps a read under any name, __proto__ too, as the result', async () => {
      const steps = vatSteps(portal.url).map((step) => ('read' in step ? { ...step, as: '__proto__' } : step));
      const odd = (await makePlaybook(store.db, d.desk.id, 'read-as-proto', steps, connectionId)).id;
      const row = await vatRow({ playbook_id: odd });
      const data = (await runVia(h, row.id)).json().data;
      expect(data).toMatchObject({ ok: true, closed: true });
      expect(data.result).toMatch(/^VAT-2026-\d{6}$/);
    });

    it("files the return, closes the row with the portal's reference as result, and writes report, events and timeline", async () => {
      const row = await vatRow();
      expect((await itemOf(store.db, d.desk.id, row.id)).action).toMatchObject({
        type: 'run',
        label: 'Let the desk do it',
      });
      const openBefore = await openCount(store.db, d.desk.id);
      const submitted = portal.submissions.length;

      const res = await runVia(h, row.id);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ ok: true, closed: true, needs: null, waiting: null });
      expect(data.result).toMatch(/^VAT-2026-\d{6}$/);
      expect(data.outcome).toContain(data.result);
      expect(data.done).toBe('Followed the playbook "file-vat-return": 8 steps.');
      expect(data.reason).toBeUndefined();
      expect(data.ms).toBeGreaterThan(0);
      expect(portal.submissions.length).toBe(submitted + 1);
      expect(portal.submissions.at(-1)!.period).toBe('2026-11-21');

      const after = await findWork(store.db, d.desk.id, row.id);
      expect(after).toMatchObject({ status: 'done', last_error: null });
      expect(after!.closed_at).not.toBeNull();
      expect(await openCount(store.db, d.desk.id)).toBe(openBefore - 1);

      const [report] = await reportsOf(store.db, d.desk.id, row.id);
      expect(report).toMatchObject({
        id: data.activity_id,
        kind: 'report',
        channel: 'run',
        status: 'recorded',
        actor: 'desk',
        outcome_id: expect.any(Number),
      });
      expect(report!.body).toContain(`Result: ${data.result}`);
      expect(report!.body).toContain('2. fill #user with ***');
      expect(report!.body).toContain('3. fill #pass with ***');
      expect(await kindsFor(row.id)).toEqual(['run_started', 'run_finished']);
      const finished = (await eventsOf(store.db, d.desk.id, 'run_finished')).find((e) => e.data.work_id === row.id)!;
      expect(finished.data).toMatchObject({
        result: data.result,
        activity_id: data.activity_id,
        closed: true,
        status: 'done',
      });
      const timeline = await timelineOf(store.db, d.desk.id, row.id);
      expect(timeline.map((t) => t.kind)).toEqual(['run_finished']);
      expect(timeline[0]!.text).toContain(data.result);
      expect((await runsOf(store.db, d.desk.id, row.id))[0]).toMatchObject({
        status: 'finished',
        how: 'playbook',
        prior_status: 'open',
        ms: data.ms,
      });

      // The login's secrets reached the portal and nowhere else.
      expect(portal.logins.at(-1)).toMatchObject({ user: PORTAL_USER, pass: PORTAL_PASSWORD });
      expect(res.body).not.toContain(PORTAL_PASSWORD);
      expect(res.body).not.toContain(PORTAL_USER);
      expect(await storedText(store.db, d.desk.id)).not.toContain(PORTAL_PASSWORD);
    });

    it("a rejected submission ends in fix with the portal's words in last_error, the row back to open", async () => {
      portal.setMode('reject');
      const row = await vatRow({ due_date: '2026-10-31' });
      const data = (await runVia(h, row.id)).json().data;
      expect(data).toMatchObject({ ok: false, closed: false, result: '', waiting: null });
      expect(data.reason).toContain('The period 2026-10-31 is already filed');
      expect(data.needs).toMatch(/needing a look/);
      expect(data.done).toBe('Followed 6 of 8 steps of the playbook "file-vat-return" before it failed.');
      expect(data.timed_out).toBeUndefined();

      const after = await findWork(store.db, d.desk.id, row.id);
      expect(after!.status).toBe('open');
      expect(after!.last_error).toBe(data.reason);
      expect((await itemOf(store.db, d.desk.id, row.id)).action?.type).toBe('fix');
      const [report] = await reportsOf(store.db, d.desk.id, row.id);
      expect(report).toMatchObject({
        id: data.activity_id,
        subject: 'Run failed: File VAT return',
        failure_reason: data.reason,
      });
      expect(await kindsFor(row.id)).toEqual(['run_started', 'run_failed']);
      expect(
        (await eventsOf(store.db, d.desk.id, 'run_failed')).find((e) => e.data.work_id === row.id)!.data,
      ).toMatchObject({ changed: true, timed_out: false });
      expect((await timelineOf(store.db, d.desk.id, row.id)).map((t) => t.kind)).toEqual(['run_failed']);
      expect(await storedText(store.db, d.desk.id)).not.toContain(PORTAL_PASSWORD);

      // Once the portal accepts, running the fix row again closes it and clears last_error.
      portal.setMode('accept');
      const retry = (await runVia(h, row.id)).json().data;
      expect(retry).toMatchObject({ ok: true, closed: true });
      expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'done', last_error: null });
    });

    it('a portal that never answers ends in timed_out with the row exactly as it was; in flight the row is in_progress', async () => {
      portal.setMode('hang');
      const short = await harness(store, { config: { chromiumPath: CHROMIUM, runTimeoutMs: 5000 } });
      try {
        const row = await vatRow({ due_date: '2026-09-30' });
        const openBefore = await openCount(store.db, d.desk.id);
        let answered = false;
        const pending = runVia(short, row.id).finally(() => {
          answered = true;
        });
        // The row is in_progress from before the browser starts until the run gives up.
        const seen = new Set<string>();
        while (!answered) {
          seen.add((await findWork(store.db, d.desk.id, row.id))!.status);
          await new Promise((r) => setTimeout(r, 20));
        }
        expect(seen.has('in_progress')).toBe(true);

        const res = await pending;
        expect(res.statusCode).toBe(200);
        const data = res.json().data;
        expect(data).toMatchObject({ ok: false, closed: false, timed_out: true, activity_id: null, result: '' });
        expect(data.reason).toMatch(/^The portal did not finish within 5s\./);
        expect(await findWork(store.db, d.desk.id, row.id)).toEqual(row);
        expect(await openCount(store.db, d.desk.id)).toBe(openBefore);
        expect(await reportsOf(store.db, d.desk.id, row.id)).toHaveLength(0);
        expect(await timelineOf(store.db, d.desk.id, row.id)).toHaveLength(0);
        expect(await kindsFor(row.id)).toEqual(['run_started', 'run_failed']);
        expect(
          (await eventsOf(store.db, d.desk.id, 'run_failed')).find((e) => e.data.work_id === row.id)!.data,
        ).toMatchObject({ timed_out: true, changed: false, activity_id: null });
        expect((await runsOf(store.db, d.desk.id, row.id))[0]).toMatchObject({ status: 'timed_out' });
        expect(await storedText(store.db, d.desk.id)).not.toContain(PORTAL_PASSWORD);
      } finally {
        await short.close();
      }
    });

    it('a run repeated with the same Idempotency-Key returns the first answer and submits once', async () => {
      const row = await vatRow({ due_date: '2026-08-31' });
      const submitted = portal.submissions.length;
      const headers = { 'idempotency-key': `vat-${row.id}` };
      const [a, b] = await Promise.all([runVia(h, row.id, headers), runVia(h, row.id, headers)]);
      const c = await runVia(h, row.id, headers);
      expect(a.json().data).toMatchObject({ ok: true, closed: true });
      expect(b.json()).toEqual(a.json());
      expect(c.json()).toEqual(a.json());
      expect(c.headers['idempotent-replayed']).toBe('true');
      expect(portal.submissions.length).toBe(submitted + 1);
      expect(await runsOf(store.db, d.desk.id, row.id)).toHaveLength(1);
    });

    it('two runs at once without a shared key are two attempts; the row is never left in_progress and open_count stays exact', async () => {
      portal.setMode('reject');
      const row = await vatRow({ due_date: '2026-07-31' });
      const submitted = portal.submissions.length;
      const answers = (await Promise.all([runVia(h, row.id), runVia(h, row.id)])).map((r) => r.json().data);
      expect(answers.every((a) => a.ok === false && a.reason.includes('already filed'))).toBe(true);
      expect(portal.submissions.length).toBe(submitted + 2);
      const after = await findWork(store.db, d.desk.id, row.id);
      expect(after!.status).toBe('open');
      expect(after!.last_error).toContain('already filed');
      expect(await openCount(store.db, d.desk.id)).toBe(await countOpenWork(store.db, d.desk.id));
      const runs = await runsOf(store.db, d.desk.id, row.id);
      expect(runs.map((r) => r.status)).toEqual(['failed', 'failed']);
      expect(runs.map((r) => r.prior_status)).toEqual(['open', 'open']);
    });

    it('two runs at once that both succeed close the row once, whatever status it started in', async () => {
      const waitingRow = await vatRow({ due_date: '2026-06-30', status: 'waiting' });
      const both = (await Promise.all([runVia(h, waitingRow.id), runVia(h, waitingRow.id)])).map((r) => r.json().data);
      expect(both.every((a) => a.ok && a.closed)).toBe(true);
      expect((await findWork(store.db, d.desk.id, waitingRow.id))!.status).toBe('done');
      expect(await openCount(store.db, d.desk.id)).toBe(await countOpenWork(store.db, d.desk.id));
    });

    it('a playbook with no login connection runs with no secrets; one that asks for a secret fails naming it', async () => {
      const plain = await makePlaybook(
        store.db,
        d.desk.id,
        'look-at-login',
        [{ goto: `${portal.url}/login` }, { fill: '#user', value: '{{work.title}}' }, { expect_text: 'Sign in' }],
        null,
      );
      const row = await vatRow({ title: 'Check the portal is up', playbook_id: plain.id });
      const data = (await runVia(h, row.id)).json().data;
      expect(data).toMatchObject({ ok: true, closed: true, result: '' });

      const wants = await makePlaybook(
        store.db,
        d.desk.id,
        'wants-secret',
        [{ goto: `${portal.url}/login` }, { fill: '#pass', value: '{{secret.password}}' }],
        null,
      );
      const row2 = await vatRow({ title: 'Needs a login', playbook_id: wants.id });
      const failed = (await runVia(h, row2.id)).json().data;
      expect(failed.ok).toBe(false);
      expect(failed.reason).toContain('{{secret.password}}');
      expect((await findWork(store.db, d.desk.id, row2.id))!.last_error).toContain('{{secret.password}}');
    });

    it("the verb tells its caller each step as it starts, secrets masked (the CLI's progress)", async () => {
      const row = await vatRow({ due_date: '2026-05-31' });
      const ctx = deskContext(h.deps, d.desk, { type: 'owner', name: 'Owner' });
      const seen: Array<[number, string]> = [];
      const answer = await runWork(ctx, row.id, { onStep: (i, text) => seen.push([i, text]) });
      expect(answer).toMatchObject({ ok: true, closed: true });
      expect(seen.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(seen[2]![1]).toBe('fill #pass with ***');
      expect(seen[4]![1]).toBe('fill #period with 2026-05-31');
      expect(JSON.stringify(seen)).not.toContain(PORTAL_PASSWORD);
      expect(
        (await eventsOf(store.db, d.desk.id, 'run_started')).find((e) => e.data.work_id === row.id)!.data.actor,
      ).toBe('Owner');
    });
  });
});
