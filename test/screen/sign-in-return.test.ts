import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { returnPath } from '../../src/screen/return-to.ts';
import type { DeskRow } from '../../src/store/schema.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { signOutDesk } from '../../src/domain/owner/sign-in.ts';
import { agreeToLink, CHROMIUM, CHROMIUM_PRESENT, launch, startScreenServer, type ScreenServer } from './helpers.ts';

// A page opened while signed out (a row's link in a message, a bookmark) is where the next
// sign-in lands, and only ever a page of this screen.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

describe('the page to go back to after signing in', () => {
  it('is a path of this screen, with its query', () => {
    expect(returnPath('/work/12')).toBe('/work/12');
    expect(returnPath('/record?events=100&activity=50')).toBe('/record?events=100&activity=50');
    expect(returnPath('/work/12/runs/abc')).toBe('/work/12/runs/abc');
  });

  it('is never another site, the API, the sign-in pages or something that is not a path', () => {
    for (const raw of [
      '//evil.test/work/1',
      '/\\evil.test',
      '/\\/evil.test',
      '/.//evil.test/work/1',
      '/work/..//evil.test',
      '/%2e//evil.test',
      'https://evil.test/',
      'http:/evil.test',
      'evil.test/work/1',
      '/api/v1/me',
      '/sign-in?token=abc',
      '/sign-out',
      '/assets/screen.js',
      '/work/1\r\nLocation: https://evil.test/',
      `/work/${'a'.repeat(3000)}`,
      '',
      null,
      42,
    ])
      expect(returnPath(raw), String(raw)).toBeNull();
  });
});

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)('signing in from a page asked for ($name)', ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let browser: Browser;
  let desk: DeskRow;

  beforeAll(async () => {
    store = await open();
    server = await startScreenServer(store);
    browser = await launch();
    ({ desk } = await makeDesk(store.db, { name: 'Quay Bakery' }));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  it("lands on the row asked for, once; the next sign-in opens the desk's front page", async () => {
    const { id } = await makeWork(store.db, desk.id, { title: 'Renew the street licence' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    try {
      const page = await context.newPage();
      const asked = await page.goto(`${server.base}/work/${id}`);
      expect(asked?.status()).toBe(401);
      await page.getByRole('heading', { level: 1, name: 'Sign in to your desk' }).waitFor();

      await agreeToLink(page, await server.link(desk.id));
      await expect.poll(() => page.url()).toBe(`${server.base}/work/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Renew the street licence' }).waitFor();

      await agreeToLink(page, await server.link(desk.id));
      await expect.poll(() => page.url()).toBe(`${server.base}/`);
      await page.getByRole('heading', { level: 1, name: 'Quay Bakery' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('a question asked after the session ended moves the whole page to sign in, saying it was not done', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    try {
      const page = await context.newPage();
      await agreeToLink(page, await server.link(desk.id));
      await page.getByRole('heading', { level: 1, name: 'Quay Bakery' }).waitFor();
      await signOutDesk(store.db, desk.id, server.clock.now());
      await page.getByLabel('Your question').fill('what is overdue?');
      await page.getByRole('button', { name: 'Ask' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in to your desk' }).waitFor();
      await page.getByText('You were signed out, so what you last sent was not done.').waitFor();
      expect(page.url()).toBe(`${server.base}/sign-in?not-done`);
      await expect(page.getByText('"api":"/api/v1"').count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });

  it('keeps the query of the page asked for, and does not remember a form sent or a page asked for by a script', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    try {
      const page = await context.newPage();
      await page.goto(`${server.base}/record?events=100&activity=50`);
      // Asked for without a browser's page in mind: not where the sign-in should land.
      await page.request.get(`${server.base}/keys`, { headers: { accept: 'application/json' }, maxRedirects: 0 });
      await page.request.post(`${server.base}/work/1/snooze`, { form: { days: '3' }, maxRedirects: 0 });
      await agreeToLink(page, await server.link(desk.id));
      await expect.poll(() => page.url()).toBe(`${server.base}/record?events=100&activity=50`);
      await page.getByRole('heading', { level: 1, name: 'Record' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
