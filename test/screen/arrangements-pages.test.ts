import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { addArrangement, addUnit } from '../helpers/business.ts';
import { makeDesk } from '../helpers/factories.ts';
import {
  CHROMIUM_PRESENT,
  expectAccessible,
  launch,
  screenshots,
  signIn,
  startScreenServer,
  type ScreenServer,
} from './helpers.ts';

// A desk of thousands of arrangements and units lists them a hundred at a time, each list
// keeping its own place, where the page drew every one of them.

const ARRANGEMENTS = 105;
const UNITS = 230;

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)('the Arrangements page of a large desk ($name)', ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let browser: Browser;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    server = await startScreenServer(store);
    browser = await launch();
    ({
      desk: { id: deskId },
    } = await makeDesk(store.db, { name: 'Many Sites' }));
    const n3 = (n: number) => String(n).padStart(3, '0');
    for (let n = 1; n <= ARRANGEMENTS; n++) await addArrangement(store.db, deskId, { name: `Lease ${n3(n)}` });
    for (let n = 1; n <= UNITS; n++) await addUnit(store.db, deskId, { type: 'site', name: `Site ${n3(n)}` });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  it('shows a hundred of each list, says where it stands, and goes on from there', async () => {
    const { context, page } = await signIn(browser, server, deskId);
    try {
      await page.goto(`${server.base}/arrangements`);
      const rows = (table: string) => page.locator(`#${table} tbody tr`);
      const pages = (what: string) => page.getByRole('navigation', { name: `Pages of ${what}` });
      await expect(rows('arrangements').count()).resolves.toBe(100);
      await expect(rows('units').count()).resolves.toBe(100);
      await expect(pages('arrangements').textContent()).resolves.toBe('Showing 1-100 of 105 arrangements. The next 5');
      await expect(pages('units').textContent()).resolves.toBe('Showing 1-100 of 230 units. The next 100');
      await expectAccessible(page);

      // The units go on; the arrangements stay where they were.
      await pages('units').getByRole('link', { name: 'The next 100' }).click();
      await page.waitForURL(/units=100/);
      await expect(rows('units').first().textContent()).resolves.toContain('Site 101');
      await expect(rows('arrangements').first().textContent()).resolves.toContain('Lease 001');
      await pages('units').getByRole('link', { name: 'The next 30' }).click();
      await page.waitForURL(/units=200/);
      await expect(rows('units').count()).resolves.toBe(30);
      await expect(pages('units').textContent()).resolves.toBe('Showing 201-230 of 230 units. The 100 before');
      await pages('arrangements').getByRole('link', { name: 'The next 5' }).click();
      await page.waitForURL(/arrangements=100/);
      await expect(rows('arrangements').count()).resolves.toBe(5);
      await expect(rows('units').first().textContent()).resolves.toContain('Site 201');
      await expectAccessible(page);
      await screenshots(page, 'arrangements-pages', [1280, 390]);

      // A place past the end, or one that is not a number, is the last page, or the first.
      await page.goto(`${server.base}/arrangements?arrangements=99999&units=x`);
      await expect(rows('arrangements').first().textContent()).resolves.toContain('Lease 101');
      await expect(rows('units').first().textContent()).resolves.toContain('Site 001');
    } finally {
      await context.close();
    }
    // Two pages of a hundred rows each, read by axe on the light page and the dark one.
  }, 120_000);
});
