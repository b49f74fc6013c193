import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { addDays } from '../../src/domain/dates.ts';
import { connectionById, connectionsWithConfig, sealConfig } from '../../src/store/repositories/connections.ts';
import { newKey, Sealer } from '../../src/store/cipher.ts';
import { withSealer } from '../../src/store/secret-key.ts';
import { insertPlaybook } from '../../src/store/repositories/records.ts';
import { playbooksOf } from '../../src/store/repositories/setup.ts';
import type { DeskRow } from '../../src/store/schema.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { addArrangement, addConnection, addUnit, addWatch } from '../helpers/business.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp, loopbackMailbox } from '../helpers/smtp.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { connectMailbox } from '../http/writes-helpers.ts';
import { setGrant } from '../../src/domain/grants/manage.ts';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { minuteOfInstant } from '../../src/domain/dates.ts';
import { runWorkPass } from '../../src/app/work/pass.ts';
import {
  CHROMIUM,
  CHROMIUM_PRESENT,
  expectAccessible,
  launch,
  ownerSession,
  screenshots,
  startScreenServer,
  type ScreenServer,
  signIn,
} from './helpers.ts';

// The owner sets the desk up in a browser: the mailbox (with a real test message through a
// loopback SMTP server that accepts, then refuses), portal sign-ins for playbooks, and the
// arrangements, units and watches, checked against the store, the API and the events log.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

const TODAY = TEST_NOW.slice(0, 10);
const MAIL_PASS = 'mail-pass-8f3k2';
const PORTAL_PASS = 'portal-pass-q7w1';

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)('the connections and setup pages ($name)', ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let api: Harness;
  let browser: Browser;
  let smtp: TestSmtp;
  let desk: DeskRow;
  let deskKey: string;
  let playbookId: number;

  beforeAll(async () => {
    store = await open();
    server = await startScreenServer(store);
    api = await harness(store);
    browser = await launch();
    smtp = await startSmtpServer();
    ({ desk, key: deskKey } = await makeDesk(store.db, { name: 'Quay Bakery', currency: 'GBP' }));
    playbookId = await insertPlaybook(store.db, {
      desk_id: desk.id,
      name: 'file-vat-return',
      connection_id: null,
      steps: JSON.stringify([{ goto: 'http://127.0.0.1:9/login' }]),
    });
  });

  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
    await api?.close();
    await server?.close();
    await store?.close();
  });

  const signedIn = () => signIn(browser, server, desk.id);

  const events = async () =>
    (await api.call('GET', '/api/v1/events?limit=100', { key: deskKey })).json().data.items as Array<{
      kind: string;
      message: string;
      data: Record<string, unknown>;
    }>;

  it('adds the mailbox, keeps its password unseen, and sends a test message that goes, then one refused', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    const box = page.locator('form[action="/connections/mailbox"]');
    await box.getByLabel('Name', { exact: true }).fill('Shop mailbox');
    await box.getByLabel('Mail server (SMTP host)').fill('127.0.0.1');
    await box.getByLabel('Port', { exact: true }).fill(String(smtp.port));
    await box.getByLabel('Security', { exact: true }).selectOption('none');
    await box.getByLabel('Password', { exact: true }).fill(MAIL_PASS);
    await box.getByLabel('From address').fill('Quay Bakery <owner@quay.test>');
    await box.getByRole('button', { name: 'Add the mailbox' }).click();
    await page.getByRole('status').filter({ hasText: 'The mailbox "Shop mailbox" is added.' }).waitFor();

    const [stored] = await connectionsWithConfig(store.db, desk.id);
    expect(stored).toMatchObject({ provider: 'smtp', category: 'mail', status: 'connected', name: 'Shop mailbox' });
    expect(stored?.config).toMatchObject({ host: '127.0.0.1', port: smtp.port, secure: false, pass: MAIL_PASS });
    // Never drawn back: not as text, not as dots, not as a length.
    expect(await page.content()).not.toContain(MAIL_PASS);
    await expect(box.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    await expect(page.locator('#mailbox-pass-hint').textContent()).resolves.toContain('A password is stored');
    await expect(box.getByLabel('Port', { exact: true }).inputValue()).resolves.toBe(String(smtp.port));

    // Saving again with the password left empty keeps it.
    await box.getByLabel('Name', { exact: true }).fill('Bakery mailbox');
    await box.getByRole('button', { name: 'Save the mailbox' }).click();
    await page.getByRole('status').filter({ hasText: 'The mailbox "Bakery mailbox" is saved.' }).waitFor();
    expect((await connectionById(store.db, desk.id, stored!.id))?.config.pass).toBe(MAIL_PASS);

    await page.getByLabel('Send it to').fill('sam@ovens.test');
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.locator('#test-outcome').waitFor();
    await expect(page.locator('#test-outcome').textContent()).resolves.toBe(
      'The mail server took the test message for sam@ovens.test.',
    );
    // The outcome is far down the page: the page opens on it, not at the top.
    const inView = () =>
      page.locator('#test-outcome').evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
    await expect.poll(inView).toBe(true);
    expect(smtp.received.map((m) => m.to)).toEqual([['sam@ovens.test']]);
    expect(smtp.received[0]?.from).toBe('owner@quay.test');
    await expectAccessible(page);
    await screenshots(page, 'connections', [1280, 390]);

    smtp.setMode('refuse');
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByRole('alert').filter({ hasText: 'refused' }).waitFor();
    const said = await page.locator('#test-outcome').textContent();
    expect(said).toContain('The mail server refused the message');
    expect(said).toContain('sam@ovens.test unavailable');
    smtp.setMode('accept');

    // Newest first, back to the desk's own key, made before the page was opened.
    const mine = (await events()).filter((e) => e.data.by === 'owner');
    expect(mine.map((e) => e.kind)).toEqual([
      'mailbox_tested',
      'mailbox_tested',
      'connection_changed',
      'connection_added',
      'key_created',
    ]);
    expect(mine.map((e) => e.data.ok)).toEqual([false, true, undefined, undefined, undefined]);
    expect(JSON.stringify(await events())).not.toContain(MAIL_PASS);
    await context.close();
  }, 120_000);

  it("with script off, a test's outcome still opens in view, and so does the field it refused", async () => {
    const { desk: plain } = await makeDesk(store.db, { name: 'Plain Bakery' });
    const config = loopbackMailbox(smtp.port, 'a@plain.test');
    await addConnection(store.db, plain.id, { config });
    const { context, page } = await signIn(browser, server, plain.id, { script: false });
    try {
      await page.goto(`${server.base}/connections`);
      const inView = (where: string) =>
        page.locator(where).evaluate((e) => {
          const r = e.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight;
        });
      await expect(inView('#test-title')).resolves.toBe(false);
      await page.getByRole('button', { name: 'Send a test message' }).click();
      await page.locator('#test-outcome').waitFor();
      await expect(inView('#test-outcome')).resolves.toBe(true);
      await page.goto(`${server.base}/connections`);
      await page.getByLabel('Send it to').fill('not an address');
      await page.getByRole('button', { name: 'Send a test message' }).click();
      await page.getByRole('button', { name: 'Send a test message' }).waitFor();
      await expect(inView('#test-title')).resolves.toBe(true);
      await page.getByRole('button', { name: 'Check the inbox' }).click();
      await page.locator('#inbox-outcome').waitFor();
      await expect(inView('#inbox-outcome')).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });

  it('refuses a mailbox without a server or with a bad port beside the fields, keeping what was typed', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/connections`);
    const before = await connectionsWithConfig(store.db, desk.id);
    const box = page.locator('form[action="/connections/mailbox"]');
    await box.getByLabel('Mail server (SMTP host)').fill('');
    await box.getByLabel('Port', { exact: true }).fill('five');
    await box.getByLabel('Password', { exact: true }).fill('a-new-secret-1');
    await box.getByLabel('From address').fill('not an address');
    await box.getByRole('button', { name: 'Save the mailbox' }).click();
    await page.locator('#mailbox-host-error').waitFor();
    await expect(page.locator('#mailbox-host-error').textContent()).resolves.toContain('The mail server is required');
    await expect(page.locator('#mailbox-port-error').textContent()).resolves.toContain('"five" is not a port');
    await expect(page.locator('#mailbox-from-error').textContent()).resolves.toContain('is not an email address');
    await expect(box.getByLabel('Port', { exact: true }).inputValue()).resolves.toBe('five');
    await expect(box.getByLabel('From address').inputValue()).resolves.toBe('not an address');
    await expect(box.getByLabel('Port', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
    // A refused form does not draw the secret it was sent either.
    expect(await page.content()).not.toContain('a-new-secret-1');
    expect(await connectionsWithConfig(store.db, desk.id)).toEqual(before);
    await expectAccessible(page);
    await context.close();
  }, 120_000);

  it("says when the desk's own send could not reach the mail server, until the settings change", async () => {
    await setGrant(store.db, { deskId: desk.id, cls: 'reach_out', granted: true, now: TEST_NOW, by: 'test' });
    await writeRails(store.db, desk.id, { hours: 'always' });
    const row = await makeWork(store.db, desk.id, {
      title: 'Ask the mill for the flour price',
      class: 'reach_out',
      contact_email: 'mill@flour.test',
    });
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/connections`);
    const box = page.locator('form[action="/connections/mailbox"]');
    // A port where a mail server was and is no more.
    const gone = await startSmtpServer();
    await gone.close();
    await box.getByLabel('Port', { exact: true }).fill(String(gone.port));
    await box.getByRole('button', { name: 'Save the mailbox' }).click();
    // The stored password goes only where it went: another port needs it typed again.
    const again = page.locator('form[action="/connections/mailbox"]');
    await again.getByText('Type the password again: the server, port, security or user changed').waitFor();
    await expect(again.getByLabel('Port', { exact: true }).inputValue()).resolves.toBe(String(gone.port));
    await again.getByLabel('Password', { exact: true }).fill(MAIL_PASS);
    await again.getByRole('button', { name: 'Save the mailbox' }).click();
    await page.getByRole('status').filter({ hasText: 'is saved.' }).waitFor();

    const missed = await runWorkPass(api.deps, { desk: desk.slug });
    expect(missed.desks[0]).toMatchObject({ state: 'mailbox_down', acts: [{ work_id: row.id, ok: false }] });
    expect(await findWork(store.db, desk.id, row.id)).toMatchObject({ status: 'open', last_error: null });

    await page.goto(`${server.base}/connections`);
    const fault = page.getByRole('alert').filter({ hasText: 'did not get through' });
    const said = await fault.textContent();
    expect(said).toContain(
      `did not get through, at ${minuteOfInstant(desk.timezone, api.clock.now().toISOString())}. The mail server could not be reached`,
    );
    expect(said).toContain('What the desk sends on its own waits and goes out once the server answers.');
    await expectAccessible(page);
    await screenshots(page, 'connections-send-fault', [1280, 390]);

    // The warning stands at the top; what a test message came to is where the page opens.
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.locator('#test-outcome').filter({ hasText: 'could not be reached' }).waitFor();
    await expect
      .poll(() =>
        page.locator('#test-outcome').evaluate((e) => {
          const r = e.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    // A failed test is what the press said, as a good one is: the keyboard starts there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('test-outcome');

    await box.getByLabel('Port', { exact: true }).fill(String(smtp.port));
    await box.getByLabel('Password', { exact: true }).fill(MAIL_PASS);
    await box.getByRole('button', { name: 'Save the mailbox' }).click();
    await page.getByRole('status').filter({ hasText: 'is saved.' }).waitFor();
    await expect(fault.count()).resolves.toBe(0);

    const sent = await runWorkPass(api.deps, { desk: desk.slug });
    expect(sent.desks[0]!.acts.map((a) => [a.work_id, a.ok])).toEqual([[row.id, true]]);
    expect(smtp.received.at(-1)?.to).toEqual(['mill@flour.test']);
    await setGrant(store.db, { deskId: desk.id, cls: 'reach_out', granted: false, now: TEST_NOW, by: 'test' });
    await context.close();
  }, 120_000);

  it('says a sign-in without a portal, and a security the form does not offer, beside the field', async () => {
    const { desk: shop } = await makeDesk(store.db, { name: 'Corner Shop' });
    const owner = await ownerSession(server, store.db, shop.id);
    const portal = await owner.post('/connections/portals', {
      name: 'Tax',
      portal: ' ',
      username: 'me',
      password: 'pw',
    });
    expect(portal.statusCode).toBe(400);
    expect(portal.body).toMatch(/id="portal-new-portal-error"[^>]*>\s*Say which service it is\./);
    const box = await owner.post('/connections/mailbox', {
      name: 'Mailbox',
      host: 'smtp.corner.test',
      port: '587',
      security: 'carrier-pigeon',
      from: 'shop@corner.test',
      pass: 'pw',
    });
    expect(box.statusCode).toBe(400);
    expect(box.body).toMatch(/id="mailbox-security-error"[^>]*>\s*Choose how the desk talks to the server\./);
    expect(await connectionsWithConfig(store.db, shop.id)).toEqual([]);
  });

  it("answers another desk's arrangement, unit or watch as not found, even with a form it would refuse", async () => {
    const { desk: theirs } = await makeDesk(store.db, { name: 'Their Shop' });
    const lease = await addArrangement(store.db, theirs.id, { name: 'Their lease' });
    const van = await addUnit(store.db, theirs.id, { name: 'Their van', type: 'van' });
    const owner = await ownerSession(server, store.db, desk.id);
    for (const [url, what] of [
      [`/arrangements/${lease.id}`, `No arrangement ${lease.id} on this desk.`],
      [`/units/${van.id}`, `No unit ${van.id} on this desk.`],
      ['/watches/99999', 'No watch 99999 on this desk.'],
    ] as const) {
      const res = await owner.post(url, { name: '', label: '' });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain(what);
    }
  });

  it('heads a refused edit with the name the entry has, not the one emptied in the form', async () => {
    // A desk of its own: the other tests count this one's entries.
    const { desk: mill } = await makeDesk(store.db, { name: 'Mill Shop' });
    const lease = await addArrangement(store.db, mill.id, { name: 'Mill lease' });
    const van = await addUnit(store.db, mill.id, { name: 'Van 3', type: 'van' });
    const owner = await ownerSession(server, store.db, mill.id);
    for (const [url, heading] of [
      [`/arrangements/${lease.id}`, '<h1>Edit &#34;Mill lease&#34;</h1>'],
      [`/units/${van.id}`, '<h1>Edit &#34;Van 3&#34;</h1>'],
    ] as const) {
      const res = await owner.post(url, { name: '' });
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toContain(heading);
    }
  });

  it('two tabs saving one entry keep both changes: each saves only the fields its owner changed', async () => {
    // A desk of its own: the other tests count this one's entries.
    const { desk: yard } = await makeDesk(store.db, { name: 'Yard Shop' });
    const lease = await addArrangement(store.db, yard.id, { name: 'Yard lease' });
    const watch = await addWatch(store.db, yard.id, {
      label: 'Yard renewal',
      subject_type: 'site',
      field: 'lease_end',
    });
    const portal = await addConnection(store.db, yard.id, {
      provider: 'gov-portal',
      name: 'Tax portal',
      category: 'portal',
      auth_type: 'login',
      config: { username: 'bakery', password: PORTAL_PASS },
    });
    await connectMailbox(store.db, yard.id, smtp.port);
    const { context, page: a } = await signIn(browser, server, yard.id);
    try {
      const b = await context.newPage();
      const both = async (
        url: string,
        form: string,
        button: string,
        first: [string, string],
        second: [string, string],
      ) => {
        await a.goto(`${server.base}${url}`);
        await b.goto(`${server.base}${url}`);
        await a.locator(form).getByLabel(first[0], { exact: true }).fill(first[1]);
        await a.locator(form).getByRole('button', { name: button }).click();
        await a.getByRole('status').filter({ hasText: 'is saved' }).waitFor();
        await b.locator(form).getByLabel(second[0], { exact: true }).fill(second[1]);
        await b.locator(form).getByRole('button', { name: button }).click();
        await b.getByRole('status').filter({ hasText: 'is saved' }).waitFor();
      };
      await both(
        `/arrangements/${lease.id}`,
        'form.settings',
        'Save',
        ['Name', 'Yard lease A'],
        ['With whom (optional)', 'Acme B'],
      );
      await both(`/watches/${watch.id}`, 'form.settings', 'Save', ['Label', 'Renewal A'], ['Days ahead', '31']);
      const portalForm = `form[action="/connections/portals/${portal.id}"]`;
      await both('/connections', portalForm, 'Save the sign-in', ['Name', 'Tax portal A'], ['User name', 'bakery2']);
      // A mailbox drawn with no inbox, given one in another tab, keeps it when renamed here.
      const box = 'form[action="/connections/mailbox"]';
      await a.goto(`${server.base}/connections`);
      await b.goto(`${server.base}/connections`);
      await b.locator(box).getByLabel('Inbox server (IMAP host)').fill('imap.yard.test');
      await b.locator(box).getByLabel('Inbox user name').fill('yard');
      await b.locator(box).getByLabel('Inbox password').fill('inbox-pass');
      await b.locator(box).getByRole('button', { name: 'Save the mailbox' }).click();
      await b.getByRole('status').filter({ hasText: 'is saved' }).waitFor();
      await a.locator(box).getByLabel('Name', { exact: true }).fill('Yard mail');
      await a.locator(box).getByRole('button', { name: 'Save the mailbox' }).click();
      await a.getByRole('status').filter({ hasText: 'is saved' }).waitFor();
    } finally {
      await context.close();
    }
    const arrangement = await store.db
      .selectFrom('arrangements')
      .selectAll()
      .where('id', '=', lease.id)
      .executeTakeFirst();
    expect(arrangement).toMatchObject({ name: 'Yard lease A', counterparty: 'Acme B' });
    const saved = await store.db.selectFrom('watches').selectAll().where('id', '=', watch.id).executeTakeFirst();
    expect(saved).toMatchObject({ label: 'Renewal A', lead_days: 31 });
    const sign = await connectionById(store.db, yard.id, portal.id);
    expect(sign?.name).toBe('Tax portal A');
    const [config] = (await connectionsWithConfig(store.db, yard.id)).filter((c) => c.id === portal.id);
    expect(config?.config).toMatchObject({ username: 'bakery2', password: PORTAL_PASS });
    const [mail] = (await connectionsWithConfig(store.db, yard.id)).filter((c) => c.category === 'mail');
    expect(mail?.name).toBe('Yard mail');
    expect(mail?.config).toMatchObject({ imap: { host: 'imap.yard.test', user: 'yard' } });
  });

  it('adds a portal sign-in for a playbook, keeps its password on an edit, and removes it after asking', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/connections`);
    const add = page.locator('form[action="/connections/portals"]');

    await add.getByRole('button', { name: 'Add the sign-in' }).click();
    await expect(page.locator('#portal-new-name-error').textContent()).resolves.toBe(
      'Give it a name, such as "Tax portal".',
    );
    await add.getByLabel('Name', { exact: true }).fill('Tax portal');
    await add.getByLabel('Portal', { exact: true }).fill('gov-portal');
    await add.getByRole('button', { name: 'Add the sign-in' }).click();
    await page.locator('#portal-new-username-error').waitFor();
    await expect(page.locator('#portal-new-password-error').textContent()).resolves.toContain('password is required');
    await expect(add.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Tax portal');
    expect((await connectionsWithConfig(store.db, desk.id)).length).toBe(1);

    // A password typed into a form refused for another field is not drawn back, and the form says so.
    await add.getByLabel('Password', { exact: true }).fill(PORTAL_PASS);
    await add.getByRole('button', { name: 'Add the sign-in' }).click();
    await page.locator('#portal-new-username-error').waitFor();
    const retype = add.getByLabel('Password', { exact: true });
    await expect(retype.getAttribute('aria-describedby')).resolves.toBe('portal-new-password-hint');
    await expect(page.locator('#portal-new-password-hint').textContent()).resolves.toContain('type it again');
    // Not an error: the focus goes to the field that is wrong.
    await expect(retype.getAttribute('aria-invalid')).resolves.toBeNull();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('portal-new-username');
    await expect(retype.inputValue()).resolves.toBe('');
    await expectAccessible(page);
    await screenshots(page, 'connections-sign-in-retype', [1280, 390]);
    expect(await page.content()).not.toContain(PORTAL_PASS);
    expect((await connectionsWithConfig(store.db, desk.id)).length).toBe(1);

    await add.getByLabel('User name').fill('bakery');
    await add.getByLabel('Password', { exact: true }).fill(PORTAL_PASS);
    await add.getByLabel('file-vat-return').check();
    await add.getByRole('button', { name: 'Add the sign-in' }).click();
    await page.getByRole('status').filter({ hasText: 'The sign-in "Tax portal" is added.' }).waitFor();
    const portal = (await connectionsWithConfig(store.db, desk.id)).find((c) => c.name === 'Tax portal');
    expect(portal).toMatchObject({ provider: 'gov-portal', auth_type: 'login' });
    expect(portal?.config).toEqual({ username: 'bakery', password: PORTAL_PASS });
    expect((await playbooksOf(store.db, desk.id)).find((p) => p.id === playbookId)?.connection_id).toBe(portal?.id);
    expect(await page.content()).not.toContain(PORTAL_PASS);
    await expect(page.locator(`#sign-in-${portal?.id} .meta`).textContent()).resolves.toBe('Used by file-vat-return.');
    await expectAccessible(page);
    await screenshots(page, 'connections-sign-in', [1280, 390]);

    const edit = page.locator(`form[action="/connections/portals/${portal?.id}"]`);
    await edit.getByLabel('User name').fill('bakery-ltd');
    await edit.getByRole('button', { name: 'Save the sign-in' }).click();
    await page.getByRole('status').filter({ hasText: 'The sign-in "Tax portal" is saved.' }).waitFor();
    expect((await connectionById(store.db, desk.id, portal!.id))?.config).toEqual({
      username: 'bakery-ltd',
      password: PORTAL_PASS,
    });

    await page.getByRole('link', { name: 'Remove the sign-in Tax portal…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Remove the connection "Tax portal"?' }).waitFor();
    expect(await connectionById(store.db, desk.id, portal!.id)).toBeDefined();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Remove it' }).click();
    await page.getByRole('status').filter({ hasText: 'The connection "Tax portal" is removed.' }).waitFor();
    expect(await connectionById(store.db, desk.id, portal!.id)).toBeUndefined();
    expect((await playbooksOf(store.db, desk.id)).find((p) => p.id === playbookId)?.connection_id).toBeNull();

    const kinds = (await events()).filter((e) => e.data.by === 'owner').map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['connection_removed', 'connection_changed', 'connection_added']);
    expect(JSON.stringify(await events())).not.toContain(PORTAL_PASS);
    await context.close();
  }, 120_000);

  it('adds an arrangement, a unit and a watch, and the watch says the day its next work opens', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Arrangements' }).click();
    await page.getByRole('heading', { level: 1, name: 'Arrangements, units and watches' }).waitFor();

    await page.getByRole('link', { name: 'Add an arrangement' }).click();
    await page.getByLabel('Name', { exact: true }).fill('High Street lease');
    await page.getByLabel('With whom (optional)').fill('Acme Estates');
    await page.getByLabel('Renews on').fill(addDays(TODAY, 40));
    await page.getByLabel('Amount (optional)').fill('12,500.50');
    await page.getByLabel('Contact email (optional)').fill('jo@acme.test');
    await page.getByRole('button', { name: 'Add the arrangement' }).click();
    await page.getByRole('status').filter({ hasText: 'The arrangement "High Street lease" is added.' }).waitFor();
    const arrangements = (await api.call('GET', '/api/v1/arrangements', { key: deskKey })).json().data.items;
    expect(arrangements).toHaveLength(1);
    expect(arrangements[0]).toMatchObject({
      name: 'High Street lease',
      counterparty: 'Acme Estates',
      renews_on: addDays(TODAY, 40),
      amount_cents: 1250050,
      currency: 'GBP',
      contact_email: 'jo@acme.test',
      status: 'active',
    });

    await page.getByRole('link', { name: 'Add a unit' }).click();
    await page.getByLabel('Name', { exact: true }).fill('12 High Street');
    await page.getByLabel('Type', { exact: true }).fill('site');
    await page.getByLabel('Arrangement (optional)').selectOption({ label: 'High Street lease' });
    await page.getByLabel('Columns, one a line').fill(`lease_end: ${addDays(TODAY, 100)}\nrooms: 3`);
    await page.getByRole('button', { name: 'Add the unit' }).click();
    await page.getByRole('status').filter({ hasText: 'The unit "12 High Street" is added.' }).waitFor();
    const units = (await api.call('GET', '/api/v1/units', { key: deskKey })).json().data.items;
    expect(units).toEqual([
      {
        id: expect.any(Number),
        type: 'site',
        name: '12 High Street',
        fields: { lease_end: addDays(TODAY, 100), rooms: '3' },
        arrangement_id: arrangements[0].id,
      },
    ]);

    await page.getByRole('link', { name: 'Add a watch' }).click();
    await page.getByLabel('Label').fill('Lease renewal');
    await page.getByLabel('Unit type').fill('site');
    await page.getByLabel('Date column').fill('lease_end');
    await page.getByLabel('Days ahead').fill('30');
    await page.getByLabel('Comes round every (days, optional)').fill('365');
    await page.getByLabel('Kind of work').fill('lease_renewal');
    await page.getByLabel('Permission class of the work').selectOption('commit');
    await page.getByRole('button', { name: 'Add the watch' }).click();
    await page.getByRole('status').filter({ hasText: 'The watch "Lease renewal" is added.' }).waitFor();
    const watches = (await api.call('GET', '/api/v1/watches', { key: deskKey })).json().data.items;
    expect(watches).toEqual([
      {
        id: expect.any(Number),
        subject_type: 'site',
        field: 'lease_end',
        label: 'Lease renewal',
        lead_days: 30,
        kind: 'lease_renewal',
        action: 'commit',
        every: '365',
        priority: 50,
      },
    ]);
    const next = page.locator(`tr[data-watch-id="${watches[0].id}"] .next-work`);
    await expect(next.getAttribute('data-next')).resolves.toBe(addDays(TODAY, 70));
    await expect(next.textContent()).resolves.toBe(
      `${addDays(TODAY, 70)}, for 12 High Street: lease_end ${addDays(TODAY, 100)}`,
    );
    // A watch of a type no unit has says it is a unit type it waits for, not the desk's arrangements.
    const idle = await addWatch(store.db, desk.id, {
      subject_type: 'arrangement',
      field: 'renews_on',
      label: 'Renewal',
    });
    await page.reload();
    await expect(page.locator(`tr[data-watch-id="${idle.id}"] .next-work`).textContent()).resolves.toBe(
      'Never yet: the desk has no unit of type "arrangement".',
    );
    await store.db.deleteFrom('watches').where('id', '=', idle.id).execute();
    await page.reload();
    await expectAccessible(page);
    await screenshots(page, 'arrangements', [1280, 390]);
    // On a phone the arrangements' table fits its width: no column hides past the edge.
    await page.setViewportSize({ width: 390, height: 900 });
    const wrap = page.locator('.table-wrap', { has: page.locator('#arrangements') });
    const { scroll, client } = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Editing the watch to start 120 days ahead: its work is due today.
    await page.getByRole('link', { name: 'Lease renewal' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit "Lease renewal"' }).waitFor();
    await expect(page.getByLabel('Days ahead').inputValue()).resolves.toBe('30');
    await page.getByLabel('Days ahead').fill('120');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'The watch "Lease renewal" is saved.' }).waitFor();
    await expect(next.textContent()).resolves.toBe(
      `${TODAY} (today), for 12 High Street: lease_end ${addDays(TODAY, 100)}`,
    );

    const mine = (await events()).filter((e) => e.data.by === 'owner').map((e) => e.kind);
    expect(mine.slice(0, 4)).toEqual(['watch_changed', 'watch_added', 'unit_added', 'arrangement_added']);
    await context.close();
  }, 120_000);

  it('refuses bad input on each form beside the field, keeping what was typed and writing nothing', async () => {
    const { context, page } = await signedIn();
    const count = async () => (await events()).length;
    const before = await count();

    await page.goto(`${server.base}/arrangements/new`);
    await page.getByLabel('Name', { exact: true }).fill('Van insurance');
    await page.getByLabel('Amount (optional)').fill('twelve');
    await page.getByLabel('Contact email (optional)').fill('not-an-email');
    await page.getByRole('button', { name: 'Add the arrangement' }).click();
    await page.locator('#arrangement-amount-error').waitFor();
    await expect(page.locator('#arrangement-amount-error').textContent()).resolves.toContain(
      '"twelve" is not an amount',
    );
    await expect(page.locator('#arrangement-contact_email-error').textContent()).resolves.toBe(
      'Contact email: "not-an-email" is not an email address.',
    );
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Van insurance');
    await expect(page.getByLabel('Amount (optional)').inputValue()).resolves.toBe('twelve');
    await expectAccessible(page);
    await screenshots(page, 'arrangement-refused', [1280, 390]);

    await page.goto(`${server.base}/units/new`);
    await page.getByLabel('Name', { exact: true }).fill('Van 2');
    await page.getByLabel('Columns, one a line').fill('mot_due 2027-01-01');
    await page.getByRole('button', { name: 'Add the unit' }).click();
    await page.locator('#unit-type-error').waitFor();
    await expect(page.locator('#unit-type-error').textContent()).resolves.toBe('Type is required.');
    await expect(page.locator('#unit-fields-error').textContent()).resolves.toContain('needs a name and a value');
    await expect(page.getByLabel('Columns, one a line').inputValue()).resolves.toBe('mot_due 2027-01-01');

    await page.goto(`${server.base}/watches/new`);
    await page.getByLabel('Label').fill('MOT');
    await page.getByLabel('Unit type').fill('van');
    await page.getByLabel('Date column').fill('mot_due');
    await page.getByLabel('Days ahead').fill('lots');
    await page.getByLabel('Kind of work').fill('mot');
    await page.getByRole('button', { name: 'Add the watch' }).click();
    await page.locator('#watch-lead_days-error').waitFor();
    await expect(page.locator('#watch-lead_days-error').textContent()).resolves.toBe(
      'Days ahead: "lots" is not a whole number.',
    );
    await expect(page.getByLabel('Label').inputValue()).resolves.toBe('MOT');
    await expect(page.getByLabel('Days ahead').getAttribute('aria-invalid')).resolves.toBe('true');
    // The refused field has the focus, as on a row's forms.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('lead_days');

    expect((await api.call('GET', '/api/v1/arrangements', { key: deskKey })).json().data.items).toHaveLength(1);
    expect((await api.call('GET', '/api/v1/units', { key: deskKey })).json().data.items).toHaveLength(1);
    expect((await api.call('GET', '/api/v1/watches', { key: deskKey })).json().data.items).toHaveLength(1);
    expect(await count()).toBe(before);
    await context.close();
  }, 120_000);

  it('says why when a secret was sealed under a key this server does not hold, rather than "Something went wrong"', async () => {
    // As after `desk secrets rotate` with this server left running on the old key.
    const { desk: other } = await makeDesk(store.db, { name: 'Moved Key Bakery' });
    const foreign = withSealer(store.db, new Sealer(newKey()));
    await store.db
      .insertInto('connections')
      .values({
        desk_id: other.id,
        provider: 'smtp',
        name: 'Mail',
        category: 'mail',
        auth_type: 'login',
        status: 'connected',
        config: sealConfig(foreign, JSON.stringify({ host: '127.0.0.1', port: 25, user: 'desk', pass: 'hidden' })),
        created_at: TEST_NOW,
      })
      .execute();
    const { context, page } = await signIn(browser, server, other.id);
    try {
      const res = await page.goto(`${server.base}/connections`);
      expect(res?.status()).toBe(500);
      await page.getByRole('heading', { name: 'The desk cannot open its secrets' }).waitFor();
      await page.getByText(/sealed under the key with fingerprint [0-9a-f]{12}/).waitFor();
      await expect(page.getByText('Something went wrong').count()).resolves.toBe(0);
      await expectAccessible(page);
    } finally {
      await context.close();
      await store.db.deleteFrom('connections').where('desk_id', '=', other.id).execute();
    }
  });

  it('shows the services that are neither the mailbox nor a sign-in as they stand, and removes one after asking', async () => {
    const { desk: books } = await makeDesk(store.db, { name: 'Ledger Bakery' });
    const service = (name: string, provider: string, category: string, status: string) =>
      store.db
        .insertInto('connections')
        .values({
          desk_id: books.id,
          provider,
          name,
          category,
          auth_type: 'oauth',
          status,
          config: sealConfig(store.db, '{}'),
          created_at: TEST_NOW,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const xero = await service('Xero', 'xero', 'accounting', 'error');
    const dropbox = await service('Dropbox', 'dropbox', 'files', 'pending');
    const { context, page } = await signIn(browser, server, books.id);
    try {
      await page.goto(`${server.base}/connections`);
      const others = page.getByRole('region', { name: 'Other services' });
      await expect(others.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(['Xero', 'Dropbox']);
      await expect(page.locator(`#service-${xero.id}-state`).textContent()).resolves.toBe(
        'Not working: the service refused the desk when it was last used.',
      );
      await expect(page.locator(`#service-${dropbox.id}-state`).textContent()).resolves.toBe(
        'Pending: it has not been authorised with the service yet.',
      );
      await expect(page.locator(`#service-${xero.id} .meta`).textContent()).resolves.toBe('xero, for accounting');
      await expectAccessible(page);
      await screenshots(page, 'connections-other-services', [1280, 390]);

      await others.getByRole('link', { name: 'Remove the service Dropbox…' }).click();
      await page.getByRole('heading', { level: 1, name: 'Remove the connection "Dropbox"?' }).waitFor();
      await page.getByRole('button', { name: 'Remove it' }).click();
      await page.getByRole('status').filter({ hasText: 'The connection "Dropbox" is removed.' }).waitFor();
      // The answer is the page's own address: a reload shows the page and removes nothing more.
      expect(page.url()).toBe(`${server.base}/connections`);
      await expect(others.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(['Xero']);
      await page.reload();
      await expect(page.getByRole('status').filter({ hasText: 'is removed' }).count()).resolves.toBe(0);
      expect((await connectionsWithConfig(store.db, books.id)).map((c) => c.name)).toEqual(['Xero']);
    } finally {
      await context.close();
    }
  });

  it('says in words what a unit or an arrangement leaves empty', async () => {
    // A desk of its own, so the other tests' counts stay as they are.
    const { desk: bare } = await makeDesk(store.db, { name: 'Yard Bakery' });
    const lease = await addArrangement(store.db, bare.id, { name: 'Yard lease', counterparty: null });
    await addUnit(store.db, bare.id, {
      name: 'Back yard',
      fields: { lease_end: null, rooms: '3' },
      arrangement_id: lease.id,
    });
    await addUnit(store.db, bare.id, { name: 'Van 1', type: 'van' });
    const { context, page } = await signIn(browser, server, bare.id);
    try {
      await page.goto(`${server.base}/arrangements`);
      const cells = (table: string, row: string) =>
        page.getByRole('table', { name: table }).getByRole('row', { name: row }).getByRole('cell').allTextContents();
      await expect(cells('Units', 'Back yard')).resolves.toEqual([
        'Back yard',
        'site',
        'Yard lease',
        'lease_end: not set; rooms: 3',
      ]);
      await expect(cells('Units', 'Van 1')).resolves.toEqual(['Van 1', 'van', 'none', 'none']);
      await expect(cells('Arrangements', 'Yard lease')).resolves.toEqual([
        'Yard lease',
        'not set',
        'active',
        'not set',
        'not set',
      ]);
      await expectAccessible(page);
      await screenshots(page, 'arrangements-unset', [1280, 390]);
      // Units and watches are listed here; their own addresses lead here.
      for (const [path, heading] of [
        ['/units', 'units-title'],
        ['/watches', 'watches-title'],
      ] as const) {
        const res = await page.goto(`${server.base}${path}`);
        expect(res?.status(), path).toBe(200);
        expect(page.url(), path).toBe(`${server.base}/arrangements#${heading}`);
        await page.locator(`#${heading}`).waitFor();
      }
    } finally {
      await context.close();
    }
  });

  it('says a date the picker could not give in the words of the form', async () => {
    const { context, page } = await signedIn();
    const arrangements = async () =>
      (await api.call('GET', '/api/v1/arrangements', { key: deskKey })).json().data.items.length;
    const before = await arrangements();
    try {
      await page.goto(`${server.base}/arrangements/new`);
      await page.getByLabel('Name', { exact: true }).fill('Bread van lease');
      // A browser without a date picker draws a text box, and what is typed there reaches the desk.
      await page.getByLabel('Starts on').evaluate((input) => {
        (input as HTMLInputElement).type = 'text';
      });
      await page.getByLabel('Starts on').fill('spring');
      await page.getByRole('button', { name: 'Add the arrangement' }).click();
      await page.getByRole('heading', { level: 1, name: 'Add an arrangement' }).waitFor();
      await expect(page.getByLabel('Starts on').getAttribute('aria-invalid')).resolves.toBe('true');
      await page
        .getByText('Pick a day from the calendar; where the field takes text, type it as YYYY-MM-DD.', { exact: true })
        .waitFor();
      await expect(page.getByText('+3d').count()).resolves.toBe(0);
      await expectAccessible(page);
      await screenshots(page, 'arrangement-date-refused', [1280, 390]);
      expect(await arrangements()).toBe(before);
    } finally {
      await context.close();
    }
  });

  it('asks before removing an arrangement, counting the notes that go and the rows and units that stay', async () => {
    // A desk of its own, so the other tests' counts stay as they are.
    const made = await makeDesk(store.db, { name: 'Mill Bakery' });
    const lease = await addArrangement(store.db, made.desk.id, { name: 'Mill lease' });
    const empty = await addArrangement(store.db, made.desk.id, { name: 'Old van lease' });
    for (const body of ['Rent rises in March.', 'Landlord prefers calls.'])
      expect(
        (await api.call('POST', `/api/v1/arrangements/${lease.id}/notes`, { key: made.key, body: { body } }))
          .statusCode,
      ).toBe(200);
    const rows = [];
    for (const title of ['Pay the rent', 'Renew the lease', 'Fix the gutter'])
      rows.push(await makeWork(store.db, made.desk.id, { title, arrangement_id: lease.id }));
    await addUnit(store.db, made.desk.id, { name: 'Mill yard', arrangement_id: lease.id });
    const { context, page } = await signIn(browser, server, made.desk.id);
    try {
      await page.goto(`${server.base}/arrangements/${empty.id}/remove`);
      await page.getByText('It has no notes. No row or unit belongs to it.').waitFor();
      await page.goto(`${server.base}/arrangements/${lease.id}/remove`);
      await page.getByRole('heading', { level: 1, name: 'Remove the arrangement "Mill lease"?' }).waitFor();
      await page
        .getByText('Its 2 notes go with it. 3 rows and 1 unit that belong to it stay, belonging to no arrangement.')
        .waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Remove it' }).click();
      await page.getByRole('status').filter({ hasText: 'The arrangement "Mill lease" is removed.' }).waitFor();
      for (const r of rows) expect((await findWork(store.db, made.desk.id, r.id))?.arrangement_id).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('removes a watch only after asking, and the rows it pointed at stay', async () => {
    const { context, page } = await signedIn();
    const [watch] = (await api.call('GET', '/api/v1/watches', { key: deskKey })).json().data.items;
    await page.goto(`${server.base}/watches/${watch.id}`);
    await page.getByRole('link', { name: 'Remove this watch…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Remove the watch "Lease renewal"?' }).waitFor();
    expect((await api.call('GET', '/api/v1/watches', { key: deskKey })).json().data.items).toHaveLength(1);
    await expectAccessible(page);
    await screenshots(page, 'watch-remove', [1280, 390]);
    await page.getByRole('button', { name: 'Remove it' }).click();
    await page.getByRole('status').filter({ hasText: 'The watch "Lease renewal" is removed.' }).waitFor();
    expect((await api.call('GET', '/api/v1/watches', { key: deskKey })).json().data.items).toEqual([]);
    const removed = (await events()).find((e) => e.kind === 'watch_removed');
    expect(removed?.data).toEqual({ watch_id: watch.id, by: 'owner' });

    // Another desk's entries are not found from here.
    const other = await makeDesk(store.db, { name: 'Other Shop' });
    const theirs = await insertPlaybook(store.db, {
      desk_id: other.desk.id,
      name: 'theirs',
      connection_id: null,
      steps: '[]',
    });
    expect((await page.goto(`${server.base}/units/999999`))?.status()).toBe(404);
    expect((await page.goto(`${server.base}/connections/999999/remove`))?.status()).toBe(404);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const crafted = await page.request.post(`${server.base}/connections/portals`, {
      form: { _csrf: csrf, name: 'Sneaky', portal: 'x', username: 'u', password: 'p', [`playbook-${theirs}`]: 'yes' },
    });
    expect(crafted.status()).toBe(400);
    expect((await playbooksOf(store.db, other.desk.id))[0]?.connection_id).toBeNull();
    // The mailbox is not a sign-in: a sign-in form aimed at it changes nothing.
    const [mailbox] = await connectionsWithConfig(store.db, desk.id);
    const aimed = await page.request.post(`${server.base}/connections/portals/${mailbox?.id}`, {
      form: { _csrf: csrf, name: 'Hijack', portal: 'x', username: 'u', password: 'p' },
    });
    expect(aimed.status()).toBe(404);
    expect(await connectionById(store.db, desk.id, mailbox!.id)).toEqual(mailbox);
    // A mailbox named by something that is no id is not found under the name it was given.
    for (const action of ['test', 'check-inbox']) {
      const garbled = await page.request.post(`${server.base}/connections/mailbox/${action}`, {
        form: { _csrf: csrf, id: 'box7', to: 'sam@ovens.test' },
      });
      expect(garbled.status()).toBe(404);
      expect(await garbled.text()).toContain('No mailbox box7 on this desk.');
    }
    await context.close();
  }, 120_000);
});
