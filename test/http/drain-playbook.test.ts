import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { chromiumAvailable } from '../../src/adapters/chromium/runner.ts';
import { deskContext } from '../../src/domain/context.ts';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { interruptRuns } from '../../src/domain/work/in-flight.ts';
import { runWork } from '../../src/domain/work/run.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { startPortal, type Portal } from '../helpers/portal.ts';
import { startServerProcess } from '../helpers/process.ts';
import { vatRow } from './run-helpers.ts';

// SIGTERM while a playbook run is in the browser: the browser is the server's to stop, not
// the signal's, so the run is recorded as interrupted at the drain limit and the row is put
// back untouched, rather than failing on a browser closed under it and needing a look.

const CHROMIUM = process.env.DESK_CHROMIUM_PATH || '/usr/bin/chromium';
const browser = chromiumAvailable(CHROMIUM);
if (!browser) console.log(`Chromium not installed at ${CHROMIUM}: skipping the stop during a playbook run.`);

describe.runIf(browser).each(DIALECTS)('stopping with a playbook run in the browser ($name)', ({ open }) => {
  let store: TestStore;
  let portal: Portal;
  let accepting: Portal;

  beforeAll(async () => {
    store = await open();
    portal = await startPortal({ mode: 'hang' });
    accepting = await startPortal({ mode: 'accept' });
  });
  afterAll(async () => {
    await portal?.close();
    await accepting?.close();
    await store?.close();
  });

  const vatRowOn = (at: Portal) => vatRow(store.db, at.url);

  it('records the run as interrupted and leaves the row as it was, with nothing to look at', async () => {
    const { d, row } = await vatRowOn(portal);
    const auth = { authorization: `Bearer ${d.key}` };

    const server = await startServerProcess(store.target, {
      DESK_DRAIN_TIMEOUT: '1s',
      DESK_RUN_TIMEOUT: '10m',
      DESK_CHROMIUM_PATH: CHROMIUM,
    });
    // A failed expectation before the stop must not leave the server running.
    onTestFinished(() => server.kill());
    const run = fetch(`${server.url}/api/v1/work/${row.id}/run`, { method: 'POST', headers: auth });
    // The run is in the browser once the portal has the login: its submit never answers.
    for (let i = 0; i < 600 && portal.logins.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(portal.logins).toHaveLength(1);

    const stopped = server.stop();
    const answer = await run;
    expect(answer.status).toBe(200);
    const data = (await answer.json()).data;
    expect(data).toMatchObject({ ok: false, closed: false, activity_id: null });
    expect(data.outcome).toContain('was interrupted');
    await stopped;

    const runs = await store.db.selectFrom('runs').select('status').where('work_id', '=', row.id).execute();
    expect(runs).toEqual([{ status: 'interrupted' }]);
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'open', last_error: null });
  }, 120_000);

  it('closes the browser before the interruption is answered, so no later step reaches the portal', async () => {
    const { d, row } = await vatRowOn(accepting);
    const h = await harness(store, { config: { chromiumPath: CHROMIUM } });
    onTestFinished(() => h.close());
    const release = accepting.holdLogins();
    onTestFinished(release);
    const ctx = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' });
    const run = runWork(ctx, row.id);
    // The run is in the browser, its sign-in sent and held by the portal.
    for (let i = 0; i < 600 && accepting.logins.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(accepting.logins).toHaveLength(1);

    expect(interruptRuns(store.db, 'server')).toBe(1);
    const answer = await run;
    expect(answer).toMatchObject({ ok: false, closed: false, activity_id: null });
    expect(answer.outcome).toContain('was interrupted');
    // The browser hung up on the held sign-in before the answer came: nothing of the run is left.
    expect(accepting.abandonedLogins()).toBe(1);
    release();
    expect(accepting.submissions).toEqual([]);
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'open', last_error: null });
  }, 120_000);

  it("ends a run the desk's own pass started, with no request in flight, at the drain limit", async () => {
    const { d, row } = await vatRowOn(accepting);
    await writeRails(store.db, d.desk.id, { hours: 'always', paused: false });
    const release = accepting.holdLogins();
    onTestFinished(release);
    const before = accepting.logins.length;
    // The server's first pass starts at once and runs the playbook on its own.
    const server = await startServerProcess(store.target, {
      DESK_DRAIN_TIMEOUT: '1s',
      DESK_RUN_TIMEOUT: '10m',
      DESK_CHROMIUM_PATH: CHROMIUM,
    });
    onTestFinished(() => server.kill());
    for (let i = 0; i < 1200 && accepting.logins.length === before; i++) await new Promise((r) => setTimeout(r, 25));
    expect(accepting.logins).toHaveLength(before + 1);

    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('Drain limit reached: 1 run(s) recorded as interrupted.');
    expect(server.output()).not.toContain('Stopped without closing the database');
    expect(accepting.abandonedLogins()).toBeGreaterThanOrEqual(1);
    const runs = await store.db.selectFrom('runs').select('status').where('work_id', '=', row.id).execute();
    expect(runs).toEqual([{ status: 'interrupted' }]);
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'open', last_error: null });
    release();
    expect(accepting.submissions).toEqual([]);
  }, 120_000);
});
