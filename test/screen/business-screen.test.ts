import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { importBusinessText } from '../../src/domain/business/import.ts';
import { heldOn } from '../../src/store/repositories/business.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { EVERYTHING, SECRETS } from '../helpers/business-file.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { dateOfInstant } from '../../src/domain/dates.ts';
import {
  CHROMIUM,
  CHROMIUM_PRESENT,
  expectAccessible,
  launch,
  startScreenServer,
  type ScreenServer,
  SHOTS,
  screenshots,
  signIn,
} from './helpers.ts';

/** The file as the tests read it: any shape, as JSON.parse gives. */
const parse = (text: string): any => load(text);

// The business file page in a real browser: Download gives the file as an attachment, and
// Import reads one into an empty desk, or refuses a file with mistakes, listing them all.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

/** What the API says with ids, slugs and write times taken out. */
function bare(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(bare);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !(k === 'id' || k === 'slug' || k.endsWith('_id') || k.endsWith('_at') || k === 'next_cursor'))
      .map(([k, x]) => [k, bare(x)]),
  );
}

// A shared machine can be slow: a page, axe and four screenshots take a while there.
describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)(
  'the business file page ($name)',
  { timeout: 120_000 },
  ({ name, open }) => {
    let store: TestStore;
    let server: ScreenServer;
    let api: Harness;
    let browser: Browser;
    let full: { id: string; key: string };
    let empty: { id: string; key: string };
    let downloaded: string;

    beforeAll(async () => {
      store = await open();
      server = await startScreenServer(store);
      api = await harness(store);
      browser = await launch();
      const r = await importBusinessText(store.db, EVERYTHING, { now: server.clock.now(), keyName: 'source' });
      full = { id: r.desk.id, key: r.key!.key };
      const e = await makeDesk(store.db, { name: 'New Shop', slug: 'new-shop' });
      empty = { id: e.desk.id, key: e.key };
    });

    afterAll(async () => {
      await browser?.close();
      await api?.close();
      await server?.close();
      await store?.close();
    });

    async function signedIn(deskId: string) {
      const { context, page } = await signIn(browser, server, deskId, { acceptDownloads: true });
      await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Business file' }).click();
      await page.getByRole('heading', { level: 1, name: 'Business file' }).waitFor();
      return { context, page };
    }

    const events = async (key: string) =>
      (await api.call('GET', '/api/v1/events?limit=100', { key })).json().data.items as Array<{
        kind: string;
        data: Record<string, unknown>;
      }>;

    it('Download sends the desk as a YAML attachment with no secret in it, logged as the owner', async () => {
      const { context, page } = await signedIn(full.id);
      // The desk holds entries, so Import is refused in words and offers no form.
      await expect(page.locator('#import-refused').textContent()).resolves.toMatch(
        /^This desk already holds 8 rows, 2 arrangements, 2 units, 2 watches, 3 connections, 1 domain, 2 sections, 1 playbook, 2 granted permissions, so it cannot take a business file/,
      );
      await expect(page.locator('form[action="/business/import"]').count()).resolves.toBe(0);
      await expectAccessible(page);
      await screenshots(page, 'business-file', [1280, 390]);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the business file' }).click(),
      ]);
      // Named for the desk's own date (EVERYTHING's desk keeps New York time).
      const today = dateOfInstant('America/New_York', server.clock.now().toISOString());
      expect(download.suggestedFilename()).toBe(`round-trip-${today}.yaml`);
      downloaded = fs.readFileSync(await download.path(), 'utf8');
      for (const s of SECRETS) expect(downloaded).not.toContain(s);
      expect(downloaded).not.toContain(full.key.slice(0, 12));
      expect(downloaded).toContain('# Secrets were left out:');
      const doc = parse(downloaded);
      expect(doc.desk.slug).toBe('round-trip');
      expect(doc.work).toHaveLength(8);

      const exported = (await events(full.key)).filter((e) => e.kind === 'desk_exported');
      expect(exported.map((e) => e.data.by)).toEqual(['owner']);
      await context.close();
    });

    it('Import refuses a file with mistakes, listing every one, keeps the text and writes nothing', async () => {
      const { context, page } = await signedIn(empty.id);
      // The empty desk's own page says its blocks are yet to come, and how to add one.
      await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Desk', exact: true }).click();
      const blocks = page.getByRole('region', { name: 'Your desk' });
      await expect(blocks.getByText(/^No blocks yet\. Ask the desk above to add one/).count()).resolves.toBe(1);
      await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Business file' }).click();
      await page.getByRole('heading', { level: 1, name: 'Business file' }).waitFor();
      const bad = EVERYTHING.replace('class: chase, priority: 60', 'class: chase, priority: 600')
        .replace('grants: [reach_out, file]', 'grants: [reach_out, money]')
        .replace('unit: main-st, due: "+30d"', 'unit: nowhere, due: "+30d"');
      await page.getByLabel('Or paste it here').fill(bad);
      await page.getByRole('button', { name: 'Import' }).click();
      const errors = page.locator('#import-errors');
      await errors.waitFor();
      await expect(errors.locator('p').textContent()).resolves.toBe(
        'The business file has 3 errors; nothing was written. Fix them all and import it again:',
      );
      await expect(errors.locator('li').allTextContents()).resolves.toEqual([
        'grants[1]: "money" cannot be granted: paying money always needs a person',
        'work[0] "Get the oven repair quote".priority: 600 must be between 1 and 100',
        'work[2] "Sign the lease renewal".unit: no unit has ref "nowhere"',
      ]);
      await expect(page.getByLabel('Or paste it here').inputValue()).resolves.toBe(bad);
      await expect(page.getByLabel('Or paste it here').getAttribute('aria-describedby')).resolves.toBe('import-errors');
      expect(Object.values(await heldOn(store.db, empty.id)).every((n) => n === 0)).toBe(true);
      expect((await events(empty.key)).filter((e) => e.kind === 'desk_imported')).toEqual([]);
      await expectAccessible(page);
      await screenshots(page, 'business-file-errors', [1280, 390]);
      await context.close();
    });

    it('Import refuses a file saved in another encoding than UTF-8, saying so, and writes nothing', async () => {
      const { context, page } = await signedIn(empty.id);
      const file = path.join(SHOTS, `business-latin1-${name}.yaml`);
      fs.mkdirSync(SHOTS, { recursive: true });
      // Latin-1: the é of "Café" is the one byte 0xE9.
      fs.writeFileSync(file, Buffer.from('desk: { name: Café Nord, slug: cafe-nord, timezone: UTC }\n', 'latin1'));
      await page.getByLabel('The file (YAML or JSON)').setInputFiles(file);
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByText('The file is not UTF-8 text. Save it as UTF-8 and import it again.').waitFor();
      // Said on the Business file page, beside its form, which stays to choose another file.
      await page.getByRole('heading', { level: 1, name: 'Business file' }).waitFor();
      await page.getByLabel('The file (YAML or JSON)').waitFor();
      expect(Object.values(await heldOn(store.db, empty.id)).every((n) => n === 0)).toBe(true);
      await expectAccessible(page);
      await screenshots(page, 'business-file-not-utf8', [1280, 390]);
      // Text that is not YAML is shown with its line and a caret under the place, laid out as said.
      await page.goto(`${server.base}/business`);
      await page.getByLabel('Or paste it here').fill('desk: { name: [unclosed');
      await page.getByRole('button', { name: 'Import' }).click();
      const excerpt = page.locator('#import-errors pre');
      await excerpt.waitFor();
      await expect(excerpt.textContent()).resolves.toMatch(/^ {2}1 \| desk: \{ name: \[unclosed\n {4}\| {2,}\^$/);
      await expectAccessible(page);
      await screenshots(page, 'business-file-syntax', [1280, 390]);
      // A file named .yaml is read as YAML even when it opens with "{", as desk import reads it.
      const flow = path.join(SHOTS, `business-flow-${name}.yaml`);
      fs.writeFileSync(flow, '{ desk: { name: Flow, slug: flow }, work: [ { title: a, priority: 600 } ] }\n');
      await page.getByLabel('The file (YAML or JSON)').setInputFiles(flow);
      await page.getByRole('button', { name: 'Import' }).click();
      await expect(page.locator('#import-errors').textContent()).resolves.toContain(
        'work[0] "a".priority: 600 must be between 1 and 100',
      );
      // The file chosen is the field refused, and takes the focus; the empty paste box is not.
      const upload = page.getByLabel('The file (YAML or JSON)');
      await expect(upload.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(upload.evaluate((e) => e === document.activeElement)).resolves.toBe(true);
      await expect(page.getByLabel('Or paste it here').getAttribute('aria-invalid')).resolves.toBeNull();
      // A NUL byte in the file is said by its place beside the form, as desk import says it.
      const nul = path.join(SHOTS, `business-nul-${name}.yaml`);
      fs.writeFileSync(nul, 'desk: { name: Nul, slug: nul }\nwork:\n  - { title: "Get\u0000 it" }\n');
      await upload.setInputFiles(nul);
      await page.getByRole('button', { name: 'Import' }).click();
      await expect(page.locator('#import-errors').textContent()).resolves.toContain(
        'holds a null byte at line 3, column 18',
      );
      await page.getByLabel('The file (YAML or JSON)').waitFor();
      expect(Object.values(await heldOn(store.db, empty.id)).every((n) => n === 0)).toBe(true);
      await context.close();
    });

    it('Import reads the downloaded file into the empty desk, which the API then cannot tell from the first', async () => {
      const { context, page } = await signedIn(empty.id);
      const file = path.join(SHOTS, `business-${name}.yaml`);
      fs.mkdirSync(SHOTS, { recursive: true });
      fs.writeFileSync(file, downloaded);
      await page.getByLabel('The file (YAML or JSON)').setInputFiles(file);
      await page.getByRole('button', { name: 'Import' }).click();
      await page
        .getByRole('status')
        .filter({
          hasText:
            "Imported: 8 rows, 2 arrangements, 2 units, 2 watches, 3 connections. A connection's password the file left out (a downloaded file leaves them all out) is entered again on the Connections page.",
        })
        .waitFor();
      // The desk took the file's name and kept its own address; Import is now refused.
      await expect(page.title()).resolves.toBe('Business file · Round Trip Cafe');
      await expect(page.locator('#import-refused').count()).resolves.toBe(1);
      await expectAccessible(page);
      await screenshots(page, 'business-file-imported', [1280, 390]);

      for (const p of [
        '/work?limit=200',
        '/arrangements',
        '/units',
        '/watches',
        '/domains',
        '/permissions',
        '/connections',
      ]) {
        const a = (await api.call('GET', `/api/v1${p}`, { key: full.key })).json().data;
        const b = (await api.call('GET', `/api/v1${p}`, { key: empty.key })).json().data;
        expect(bare(b), p).toEqual(bare(a));
      }
      const me = (await api.call('GET', '/api/v1/me', { key: empty.key })).json().data;
      expect(me.desk).toMatchObject({ id: empty.id, slug: 'new-shop', name: 'Round Trip Cafe' });
      const imported = (await events(empty.key)).filter((e) => e.kind === 'desk_imported');
      expect(imported.map((e) => e.data.by)).toEqual(['owner']);
      await context.close();
    });
  },
);
