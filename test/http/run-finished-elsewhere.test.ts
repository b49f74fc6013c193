import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { chromiumAvailable } from '../../src/adapters/chromium/runner.ts';
import { deskContext } from '../../src/domain/context.ts';
import { runWork } from '../../src/domain/work/run.ts';
import { findWork, moveWork } from '../../src/store/repositories/work.ts';
import { harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { startPortal, type Portal } from '../helpers/portal.ts';
import { vatRow } from './run-helpers.ts';

// A run that fails on a row another writer finished while it was in the browser: the row is
// left as it is, and the run's answer says so rather than asking for a look at a row that
// shows nothing to look at.

const CHROMIUM = process.env.DESK_CHROMIUM_PATH || '/usr/bin/chromium';
const browser = chromiumAvailable(CHROMIUM);
if (!browser) console.log(`Chromium not installed at ${CHROMIUM}: skipping a run that fails on a finished row.`);

describe.runIf(browser).each(DIALECTS)('a run failing on a row finished meanwhile ($name)', ({ open }) => {
  let store: TestStore;
  let portal: Portal;

  beforeAll(async () => {
    store = await open();
    portal = await startPortal({ mode: 'reject' });
  });
  afterAll(async () => {
    await portal?.close();
    await store?.close();
  });

  it('leaves the row done and asks for no look', async () => {
    const { d, row } = await vatRow(store.db, portal.url);
    const h = await harness(store, { config: { chromiumPath: CHROMIUM } });
    onTestFinished(() => h.close());
    const release = portal.holdLogins();
    onTestFinished(release);
    const running = runWork(deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' }), row.id);
    for (let i = 0; i < 600 && portal.logins.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(portal.logins).toHaveLength(1);
    // The owner marks it done by hand while the run is signing in.
    await moveWork(store.db, d.desk.id, row.id, 'in_progress', 'done', { closed_at: h.clock.now().toISOString() });
    release();

    const answer = await running;
    expect(answer).toMatchObject({ ok: false, closed: false, needs: null });
    expect(answer.outcome).toBe(
      'The playbook "file-vat-return" for "File VAT return" failed; "File VAT return" was marked done meanwhile, so it is left as it is.',
    );
    expect(await findWork(store.db, d.desk.id, row.id)).toMatchObject({ status: 'done', last_error: null });
  }, 120_000);
});
