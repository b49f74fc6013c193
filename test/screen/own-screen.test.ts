import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { runWorkPass } from '../../src/app/work/pass.ts';
import type { DeskRow } from '../../src/store/schema.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox } from '../http/writes-helpers.ts';
import {
  CHROMIUM,
  CHROMIUM_PRESENT,
  expectAccessible,
  launch,
  screenshots,
  signIn,
  startScreenServer,
  type ScreenServer,
} from './helpers.ts';

// The "On its own" page in a real browser: pause and resume, the rails with a refused value
// said beside its field and nothing changed, and what the desk did on its own with each row.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)('the On its own page ($name)', ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let browser: Browser;
  let smtp: TestSmtp;
  let desk: DeskRow;
  let rowId: number;

  beforeAll(async () => {
    store = await open();
    server = await startScreenServer(store);
    browser = await launch();
    smtp = await startSmtpServer();
    ({ desk } = await makeDesk(store.db, { name: 'Quay Bakery', grants: ['reach_out'] }));
    await connectMailbox(store.db, desk.id, smtp.port);
    await writeRails(store.db, desk.id, { hours: 'always', paused: true });
    ({ id: rowId } = await makeWork(store.db, desk.id, {
      title: 'Ask the window cleaner for a quote',
      class: 'reach_out',
      contact_name: 'Ana Clear',
      contact_email: 'ana@own.test',
    }));
  });
  afterAll(async () => {
    await smtp?.close();
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  const rails = () =>
    store.db
      .selectFrom('desks')
      .select(['hours', 'daily_cap', 'act_within_days', 'paused'])
      .where('id', '=', desk.id)
      .executeTakeFirstOrThrow();

  it('resumes, refuses a bad cap beside its field, and lists what the desk did on its own', {
    timeout: 90_000,
  }, async () => {
    const { context, page } = await signIn(browser, server, desk.id, { width: 1440 });
    try {
      await page.goto(`${server.base}/work/${rowId}`);
      await expect(page.locator('#on-own').textContent()).resolves.toBe(
        'The desk would do this on its own, but it is paused.',
      );
      await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'On its own' }).click();
      await page.getByRole('heading', { level: 1, name: 'On its own' }).waitFor();
      await expect(page.locator('#paused-state').textContent()).resolves.toContain('Paused');
      await expectAccessible(page);

      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('status').filter({ hasText: 'Resumed' }).waitFor();
      expect((await rails()).paused).toBe(0);
      // Paused again: the notice says what the press did, and the state is said once, below it.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('status').filter({ hasText: 'The desk is paused.' }).waitFor();
      expect((await rails()).paused).toBe(1);
      await expect(page.getByText(/^Paused: the desk does nothing on its own/).count()).resolves.toBe(1);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('status').filter({ hasText: 'Resumed' }).waitFor();

      const before = await rails();
      await page.getByLabel('Daily cap').fill('5000');
      await page.getByRole('button', { name: 'Save the rails' }).click();
      const error = page.locator('#error-daily_cap');
      await error.waitFor();
      await expect(error.textContent()).resolves.toBe('Type a whole number from 0 to 1000.');
      await expect(page.getByLabel('Daily cap').getAttribute('aria-invalid')).resolves.toBe('true');
      // Its name is its label alone; the hint and the error are its description, said once.
      await expect(page.getByRole('spinbutton', { name: 'Daily cap', exact: true }).count()).resolves.toBe(1);
      await expect(page.getByLabel('Daily cap').getAttribute('aria-describedby')).resolves.toBe(
        'hint-daily_cap error-daily_cap',
      );
      // The refused field has the focus, as on a row's forms.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('daily_cap');
      expect(await rails()).toEqual(before);
      await expectAccessible(page);

      await page.getByLabel('Daily cap').fill('3');
      await page.getByRole('button', { name: 'Save the rails' }).click();
      await page.getByRole('status').filter({ hasText: 'The rails are saved.' }).waitFor();
      expect((await rails()).daily_cap).toBe(3);
      // The form answered with the page's own address, so a reload reads it again and posts nothing.
      expect(page.url()).toBe(`${server.base}/on-its-own`);

      await runWorkPass(server.deps, { desk: desk.slug });
      expect(smtp.received.map((m) => m.to[0])).toEqual(['ana@own.test']);
      await page.reload();
      await expect(page.getByRole('status').filter({ hasText: 'The rails are saved.' }).count()).resolves.toBe(0);
      const today = page.locator('.own-acts').first();
      await expect(today.getByRole('link', { name: 'Ask the window cleaner for a quote' }).count()).resolves.toBe(1);
      await expect(today.textContent()).resolves.toContain('waiting on Ana Clear');
      await screenshots(page, 'on-its-own');
      await today.getByRole('link', { name: 'Ask the window cleaner for a quote' }).click();
      await expect(page.locator('#on-own').textContent()).resolves.toBe(
        'The desk will not act on this on its own: Chasing is not granted, so the desk only prepares.',
      );
    } finally {
      await context.close();
    }
  });

  it('saves only the rails changed on the form, so a form drawn before another change keeps that change', async () => {
    await writeRails(store.db, desk.id, { hours: 'mon-fri 09:00-17:00', daily_cap: 5, act_within_days: 7 });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/on-its-own`);
      // Meanwhile the owner stops the desk acting on its own from the command line.
      await writeRails(store.db, desk.id, { daily_cap: 0 });
      await page.getByLabel('Working hours').fill('mon-sat 08:00-18:00');
      await page.getByRole('button', { name: 'Save the rails' }).click();
      await page.getByRole('status').filter({ hasText: 'The rails are saved.' }).waitFor();
      expect(await rails()).toMatchObject({ hours: 'mon-sat 08:00-18:00', daily_cap: 0, act_within_days: 7 });
      // Working hours are held to a length, beside the field, and nothing is saved.
      await page.getByLabel('Working hours').fill(`${'mon,'.repeat(60)}tue 09:00-17:00`);
      await page.getByRole('button', { name: 'Save the rails' }).click();
      await expect(page.locator('#error-hours').textContent()).resolves.toMatch(/200 characters/);
      expect((await rails()).hours).toBe('mon-sat 08:00-18:00');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });
});
