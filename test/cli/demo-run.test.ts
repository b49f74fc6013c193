import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../src/adapters/chromium/runner.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { desk } from '../helpers/cli.ts';
import { startPortal, type Portal } from '../helpers/portal.ts';
import { findWork } from '../../src/store/repositories/work.ts';

// The demo desk end to end, as the owner would do it: grant `file`, run the VAT-return row
// against the tax portal (the demo's playbook expects it on 127.0.0.1:8099), in real Chromium.

const CHROMIUM = process.env.DESK_CHROMIUM_PATH || '/usr/bin/chromium';
const available = chromiumAvailable(CHROMIUM);
if (!available)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the demo VAT-return run (set DESK_CHROMIUM_PATH).`);

describe.runIf(available).each(DIALECTS)("the demo desk's VAT return, run from the CLI ($name)", ({ open }) => {
  let store: TestStore;
  let portal: Portal;

  beforeAll(async () => {
    store = await open();
    portal = await startPortal({ port: 8099 });
  });
  afterAll(async () => {
    await portal.close();
    await store.close();
  });

  it("is refused until `file` is granted, then closes with the portal's reference", async () => {
    const demo = (await desk(store.target, 'demo', '--json')).json();
    const vat = demo.refs.vat as number;

    const refused = await desk(store.target, 'run', String(vat));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/desk: The desk has not been granted "file" work/);
    expect(portal.submissions).toHaveLength(0);

    expect((await desk(store.target, 'grants', 'set', '--desk', demo.desk.slug, 'file')).code).toBe(0);
    const run = await desk(store.target, 'run', String(vat));
    expect(run.err).toContain(`Running #${vat} on demo-bakery...`);
    expect(run.err).toContain('step 1: goto http://127.0.0.1:8099/login');
    expect(run.err).toContain('step 3: fill #pass with ***');
    expect(run.err).not.toContain('s3cret');
    expect(run.code).toBe(0);
    const reference = /Result: (VAT-2026-\d{6})/.exec(run.out)?.[1];
    expect(reference).toBeDefined();
    expect(portal.submissions).toHaveLength(1);
    expect(portal.submissions[0]!.period).toBe((await findWork(store.db, demo.desk.id, vat))!.due_date);
    expect(await findWork(store.db, demo.desk.id, vat)).toMatchObject({ status: 'done', last_error: null });
    const report = await store.db
      .selectFrom('activity')
      .selectAll()
      .where('obligation_id', '=', vat)
      .where('kind', '=', 'report')
      .executeTakeFirstOrThrow();
    expect(report.body).toContain(reference!);
  });

  it('writes out the control characters of a step it says it is taking, never obeying them', async () => {
    const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'desk-esc-'));
    try {
      const file = path.join(dir, 'esc.json');
      writeFileSync(
        file,
        JSON.stringify({
          desk: { name: 'Esc Test', slug: 'esc-test', timezone: 'Europe/London' },
          grants: ['file'],
          playbooks: [{ name: 'pb', steps: [{ goto: `${portal.url}/login` }, { fail_if_text: '\u001b[2JRED' }] }],
          work: [{ title: 'Esc row', class: 'file', due: '+1d', playbook: 'pb' }],
        }),
      );
      const made = await desk(store.target, 'import', file, '--json');
      expect(made.code, made.err).toBe(0);
      const row = (
        await store.db.selectFrom('work').select('id').where('title', '=', 'Esc row').executeTakeFirstOrThrow()
      ).id;
      const run = await desk(store.target, 'run', String(row), '--desk', 'esc-test');
      expect(run.err).toContain('step 2: fail if text "\\u001b[2JRED"');
      expect(run.err).not.toContain('\u001b');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
