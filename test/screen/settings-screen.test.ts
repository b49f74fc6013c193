import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { addDays } from '../../src/domain/dates.ts';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { listKeys } from '../../src/domain/keys/create.ts';
import { lastDayOf } from '../../src/domain/keys/expiry.ts';
import { grantsOf } from '../../src/store/repositories/desks.ts';
import type { DeskRow } from '../../src/store/schema.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import {
  CHROMIUM,
  CHROMIUM_PRESENT,
  expectAccessible,
  launch,
  screenshots,
  startScreenServer,
  type ScreenServer,
  signIn,
} from './helpers.ts';

// The owner's permissions and keys pages in a real browser, checked against the API: the
// counts GET /permissions gives, the events log, and a key refused once it is revoked.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

const TODAY = TEST_NOW.slice(0, 10);
const GRANTABLE = ['reach_out', 'chase', 'file', 'commit'] as const;

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)('the permissions and keys pages ($name)', ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let api: Harness;
  let browser: Browser;
  let desk: DeskRow;
  let deskKey: string;
  let other: { desk: DeskRow; key: string; keyId: number };
  let made: { key: string; name: string };

  beforeAll(async () => {
    store = await open();
    server = await startScreenServer(store);
    api = await harness(store);
    browser = await launch();
    ({ desk, key: deskKey } = await makeDesk(store.db, { name: 'Quay Bakery', grants: ['chase'] }));
    for (const [title, cls, waiting_on] of [
      ['Confirm the flour order', 'reach_out', null],
      ['Ask about the oven service', 'reach_out', null],
      ['Chase the café invoice', 'chase', null],
      ['Chase the market deposit', 'chase', 'Market office'],
      ['File the hygiene renewal', 'file', null],
    ] as const)
      await makeWork(store.db, desk.id, { title, class: cls, waiting_on, due_date: addDays(TODAY, 3) });
    const o = await makeDesk(store.db, { name: 'Other Shop' });
    other = { desk: o.desk, key: o.key, keyId: o.keyId };
  });

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await server?.close();
    await store?.close();
  });

  const signedIn = () => signIn(browser, server, desk.id, { width: 1440 });

  const events = async () =>
    (await api.call('GET', '/api/v1/events?limit=100', { key: deskKey })).json().data.items as Array<{
      kind: string;
      data: Record<string, unknown>;
    }>;

  it('a switch per grantable class shows the rows GET /permissions counts, and switching is logged as the owner', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Permissions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Permissions' }).waitFor();

    const counts = (await api.call('GET', '/api/v1/permissions', { key: deskKey })).json().data.classes;
    for (const cls of GRANTABLE) {
      const c = counts[cls];
      await expect(page.locator(`#class-${cls} .covers`).getAttribute('data-rows')).resolves.toBe(
        String(c.doing + c.asking + c.covered),
      );
    }
    expect(counts.reach_out.asking).toBe(2);
    await expect(page.locator('#class-reach_out .covers').textContent()).resolves.toBe(
      '2 rows open: 2 rows waiting for you.',
    );
    await expect(page.locator('#class-chase .covers').textContent()).resolves.toBe(
      '2 rows open: 1 row the desk does, 1 row out with somebody.',
    );
    await expect(page.getByRole('switch', { name: 'Chase' }).getAttribute('aria-checked')).resolves.toBe('true');

    for (const [cls, name, words] of [
      ['money', 'Money', 'Paying money always needs a person'],
      ['sign', 'Sign', 'Signing always needs a person'],
    ] as const) {
      const sw = page.getByRole('switch', { name });
      await expect(sw.isDisabled()).resolves.toBe(true);
      await expect(sw.getAttribute('aria-checked')).resolves.toBe('false');
      await expect(page.locator(`#why-${cls}`).textContent()).resolves.toContain(words);
      await expect(page.locator(`#class-${cls} form`).count()).resolves.toBe(0);
    }
    await expectAccessible(page);
    await screenshots(page, 'permissions');

    const reachOut = page.getByRole('switch', { name: 'Reach out' });
    await expect(reachOut.getAttribute('aria-checked')).resolves.toBe('false');
    await reachOut.click();
    await page.getByRole('status').filter({ hasText: 'The desk may now do "Reach out" work.' }).waitFor();
    await expect(page.getByRole('switch', { name: 'Reach out' }).getAttribute('aria-checked')).resolves.toBe('true');
    // The focus is back on the switch pressed, which says its new state, so it can be pressed again.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'switch');
    await expect(page.evaluate(() => document.activeElement?.closest('article')?.id)).resolves.toBe('class-reach_out');
    expect([...(await grantsOf(store.db, desk.id))].sort()).toEqual(['chase', 'reach_out']);
    const after = (await api.call('GET', '/api/v1/permissions', { key: deskKey })).json().data.classes;
    expect(after.reach_out).toEqual({ doing: 2, asking: 0, covered: 0 });

    await page.getByRole('switch', { name: 'Chase' }).click();
    await page.getByRole('status').filter({ hasText: 'will now ask you before "Chase" work' }).waitFor();
    expect([...(await grantsOf(store.db, desk.id))].sort()).toEqual(['reach_out']);

    const changes = (await events()).filter((e) => e.kind === 'grant_changed' && e.data.by === 'owner');
    expect(changes.map((e) => [e.data.class, e.data.granted]).sort()).toEqual([
      ['chase', false],
      ['reach_out', true],
    ]);
    await context.close();
  });

  it('a crafted request to grant money or sign is refused with 403 and a reason, and writes nothing', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/permissions`);
    const csrf = await page.locator('#class-file input[name="_csrf"]').inputValue();
    const before = await events();
    for (const cls of ['money', 'sign']) {
      const res = await page.request.post(`${server.base}/permissions`, {
        form: { _csrf: csrf, class: cls, granted: 'yes', idempotency_key: `crafted-${cls}` },
      });
      expect(res.status()).toBe(403);
      expect(await res.text()).toContain(`&#34;${cls}&#34; cannot be granted:`);
      expect(await res.text()).toContain('always needs a person');
    }
    // A class that does not exist is a plain refusal, said on the page.
    const odd = await page.request.post(`${server.base}/permissions`, {
      form: { _csrf: csrf, class: 'nonsense', granted: 'yes', idempotency_key: 'crafted-nonsense' },
    });
    expect(odd.status()).toBe(400);
    expect(await odd.text()).toContain('is not a permission class');
    expect([...(await grantsOf(store.db, desk.id))].sort()).toEqual(['reach_out']);
    expect((await events()).length).toBe(before.length);
    const perms = (await api.call('GET', '/api/v1/permissions', { key: deskKey })).json().data.classes;
    expect(perms.money.doing).toBe(0);
    await context.close();
  });

  it('says plainly when the desk is paused, and what a switched-on class then does', async () => {
    const { context, page } = await signedIn();
    await writeRails(store.db, desk.id, { paused: true });
    try {
      await page.goto(`${server.base}/permissions`);
      await page.getByText('The desk is paused: it does none of this work on its own', { exact: false }).waitFor();
      await page.getByRole('link', { name: 'On its own', exact: true }).first().waitFor();
      // Reach out is switched on by the first test: on, but not done while paused.
      await expect(page.getByRole('switch', { name: 'Reach out' }).getAttribute('aria-checked')).resolves.toBe('true');
      await page.getByText('The desk would do this work without asking, but it is paused.').waitFor();
      await page.getByText('2 rows open: 2 rows the desk would do once resumed.').waitFor();
      await expectAccessible(page);
      await screenshots(page, 'permissions-paused', [1280, 390]);
    } finally {
      await writeRails(store.db, desk.id, { paused: false });
    }
    await page.reload();
    await page.getByText('The desk does this work without asking.').waitFor();
    await expect(page.getByText('The desk is paused', { exact: false }).count()).resolves.toBe(0);
    await context.close();
  });

  it('makes a key that is shown once with a copy button, and lists it without its text', async () => {
    const { context, page } = await signedIn();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    const lastDay = addDays(TODAY, 30);
    const idem = await page.locator('form[action="/keys"] input[name="idempotency_key"]').inputValue();
    const csrf = await page.locator('form[action="/keys"] input[name="_csrf"]').inputValue();
    await page.getByLabel('Name: who will hold it').fill('Accounts sync');
    await page.getByLabel(/Last day it works/).fill(lastDay);
    await page.getByRole('button', { name: 'Make the key' }).click();
    await page.getByRole('heading', { name: 'Key "Accounts sync" made' }).waitFor();
    const key = await page.getByLabel('The whole key').inputValue();
    expect(key).toMatch(/^desk_[0-9A-Za-z]{40}$/);
    made = { key, name: 'Accounts sync' };
    // The page opens on the key, so a keyboard or a screen reader is at what to copy.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-key');

    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copy-state').textContent()).toBe('Copied.');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);
    await expectAccessible(page);
    await screenshots(page, 'keys-made');

    // The key works for a program; the desk knows it was used.
    expect((await api.call('GET', '/api/v1/me', { key })).statusCode).toBe(200);

    // Never again: not on the list, not on a second press of the same form.
    const again = await page.request.post(`${server.base}/keys`, {
      form: { _csrf: csrf, idempotency_key: idem, name: 'Accounts sync', expires: lastDay },
    });
    expect(again.status()).toBe(200);
    const replay = await again.text();
    expect(replay).not.toContain(key);
    expect(replay).toContain('made by an earlier press of this form');
    const stored = (await listKeys(store.db, desk.id)).filter((k) => k.name === 'Accounts sync');
    expect(stored).toHaveLength(1);

    await page.goto(`${server.base}/keys`);
    expect(await page.content()).not.toContain(key);
    const row = page.locator(`tr[data-key-id="${stored[0]?.id}"]`);
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toBe('Accounts sync');
    expect(cells[1]).toBe(`${key.slice(0, 12)}…`);
    expect(cells[3]).not.toBe('Never');
    expect(cells[4]).toBe(lastDay);
    expect(lastDayOf(desk.timezone, stored[0]?.expires_at ?? '')).toBe(lastDay);
    expect(cells[5]).toBe('Works');
    await expectAccessible(page);
    await screenshots(page, 'keys');
    // On a phone, and on a screen zoomed to 200% (1280 px is then 640 px of room) or a tablet's
    // 768-1023 px, the key's state and its Revoke link fit, with no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshots(page, 'keys-phone', [390]);
    const revoke = row.getByRole('link', { name: /^Revoke Accounts sync/ });
    for (const width of [320, 390, 640, 700, 767, 768, 1000]) {
      await page.setViewportSize({ width, height: 844 });
      const box = await revoke.boundingBox();
      expect(box && box.x + box.width, `at ${width}px`).toBeLessThanOrEqual(width);
      await expect(row.getByText('Works', { exact: true }).isVisible(), `at ${width}px`).resolves.toBe(true);
      const table = page.locator('#keys');
      expect(await table.evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth), `at ${width}px`).toBe(true);
    }
    await context.close();
  });

  it("on a phone a key with a long name still shows every key's state and Revoke link within the width", async () => {
    const { desk: shop } = await makeDesk(store.db, { name: 'Long Names Ltd' });
    const { context, page } = await signIn(browser, server, shop.id, { width: 390 });
    await page.goto(`${server.base}/keys`);
    const long = `payroll-export-${'x'.repeat(90)}@accounts.example`;
    for (const name of [long, 'Till sync']) {
      await page.getByLabel('Name: who will hold it').fill(name);
      await page.getByRole('button', { name: 'Make the key' }).click();
      await page.getByRole('heading', { name: `Key "${name}" made` }).waitFor();
    }
    await page.goto(`${server.base}/keys`);
    for (const name of [long, 'Till sync', 'demo']) {
      const row = page
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: new RegExp(`^Revoke ${name}`) }) });
      if (name === 'demo' && (await row.count()) === 0) continue;
      for (const part of [row.getByRole('link', { name: /^Revoke / }), row.getByRole('cell', { name: 'Works' })]) {
        const box = await part.boundingBox();
        expect(box && box.x + box.width, `${name}: ${await part.textContent()}`).toBeLessThanOrEqual(390);
      }
    }
    await expectAccessible(page);
    await screenshots(page, 'keys-long-name-phone', [390]);
    await context.close();
  });

  it('refuses a key without a name or with a past last day beside the field, keeping what was typed', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/keys`);
    const before = (await listKeys(store.db, desk.id)).length;
    await page.getByLabel('Name: who will hold it').fill('   ');
    await page.getByLabel(/Last day it works/).fill(addDays(TODAY, 5));
    await page.getByRole('button', { name: 'Make the key' }).click();
    await page.locator('#key-name-error').waitFor();
    await expect(page.locator('#key-name-error').textContent()).resolves.toContain('A key needs a name');
    await expect(page.getByLabel(/Last day it works/).inputValue()).resolves.toBe(addDays(TODAY, 5));
    await expect(page.getByLabel('Name: who will hold it').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('Name: who will hold it').fill('Old sync');
    await page.getByLabel(/Last day it works/).fill(addDays(TODAY, -1));
    await page.getByRole('button', { name: 'Make the key' }).click();
    await page.locator('#key-expires-error').waitFor();
    await expect(page.locator('#key-expires-error').textContent()).resolves.toContain('cannot expire in the past');
    await expect(page.getByLabel('Name: who will hold it').inputValue()).resolves.toBe('Old sync');
    expect((await listKeys(store.db, desk.id)).length).toBe(before);
    await context.close();
  });

  it('revokes a key after a confirmation page, and the API refuses it on its next request', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/keys`);
    const id = (await listKeys(store.db, desk.id)).find((k) => k.name === made.name)?.id;
    await page.getByRole('link', { name: `Revoke ${made.name} (${made.key.slice(0, 12)}…)` }).click();
    await page.getByRole('heading', { level: 1, name: `Revoke "${made.name}"?` }).waitFor();
    // The key's last day is said here too, where a phone's Keys table leaves it out.
    await expect(page.getByText(/, working through \d{4}-\d{2}-\d{2}\. A program using it/).count()).resolves.toBe(1);
    expect(page.url()).toBe(`${server.base}/keys/${id}/revoke`);
    // Only the confirmation revokes: the key still works while the question is asked.
    expect((await api.call('GET', '/api/v1/me', { key: made.key })).statusCode).toBe(200);
    await expectAccessible(page);
    await screenshots(page, 'key-revoke');

    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.getByRole('status').filter({ hasText: 'is revoked' }).waitFor();
    const refused = await api.call('GET', '/api/v1/me', { key: made.key });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('unauthorized');
    const cells = await page.locator(`tr[data-key-id="${id}"] td`).allTextContents();
    expect(cells[5]).toMatch(/^Revoked /);
    await expect(page.getByRole('link', { name: new RegExp(`^Revoke ${made.name}`) }).count()).resolves.toBe(0);
    expect(
      (await events()).filter((e) => e.kind === 'key_revoked' && e.data.key_id === id).map((e) => e.data.by),
    ).toEqual(['owner']);
    expect(
      (await events()).filter((e) => e.kind === 'key_created' && e.data.key_id === id).map((e) => e.data.by),
    ).toEqual(['owner']);

    // Another desk's key is not found here, and cannot be revoked from here.
    expect((await page.goto(`${server.base}/keys/${other.keyId}/revoke`))?.status()).toBe(404);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const post = await page.request.post(`${server.base}/keys/${other.keyId}/revoke`, {
      form: { _csrf: csrf, idempotency_key: 'other-desk' },
    });
    expect(post.status()).toBe(404);
    expect((await api.call('GET', '/api/v1/me', { key: other.key })).statusCode).toBe(200);
    await context.close();
  });
});
