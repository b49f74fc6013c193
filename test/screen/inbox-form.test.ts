import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connectionById, connectionsWithConfig } from '../../src/store/repositories/connections.ts';
import type { DeskRow } from '../../src/store/schema.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { dovecotMissing, startDovecot, type TestImap } from '../helpers/dovecot.ts';
import { makeDesk } from '../helpers/factories.ts';
import { runMailPass } from '../../src/app/mail/pass.ts';
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

// The owner tells the desk where replies arrive: the imap part of the mailbox form, saved with
// its password unseen and sealed, then "Check the inbox" against a real Dovecot, which answers
// with the count, or refuses a wrong password in its own words.

const missing = dovecotMissing();
if (!CHROMIUM_PRESENT) console.log(`Chromium not installed at ${CHROMIUM}: skipping the inbox form tests.`);
if (missing) console.log(`${missing}: skipping the inbox form tests.`);

const SMTP_PASS = 'smtp-pass-k2j9';

describe.runIf(CHROMIUM_PRESENT && !missing).each(DIALECTS)(
  'the inbox part of the mailbox form ($name)',
  ({ open }) => {
    let store: TestStore;
    let server: ScreenServer;
    let api: Harness;
    let browser: Browser;
    let imap: TestImap;
    let desk: DeskRow;
    let deskKey: string;

    beforeAll(async () => {
      store = await open();
      server = await startScreenServer(store);
      api = await harness(store);
      browser = await launch();
      imap = await startDovecot();
      ({ desk, key: deskKey } = await makeDesk(store.db, { name: 'Quay Bakery', currency: 'GBP' }));
      const at = new Date(Date.parse(TEST_NOW) - 3_600_000);
      await imap.append(
        [
          'From: Sam Oven <sam@ovens.test>',
          'To: owner@quay.test',
          'Subject: Hello',
          `Date: ${at.toUTCString()}`,
          'Message-ID: <hello-1@ovens.test>',
          '',
          'Hello.',
          '',
        ].join('\r\n'),
        { at },
      );
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await imap?.stop();
      await api?.close();
      await server?.close();
      await store?.close();
    });

    async function signedIn() {
      const signed = await signIn(browser, server, desk.id, { timeout: 20_000 });
      await signed.page.goto(`${server.base}/connections`);
      return signed;
    }

    const events = async () =>
      (await api.call('GET', '/api/v1/events?limit=100', { key: deskKey })).json().data.items as Array<{
        kind: string;
        data: Record<string, unknown>;
      }>;

    const sealedRow = async (id: number) =>
      JSON.stringify(await store.db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirst());

    it('saves the inbox with its password unseen and sealed, and "Check the inbox" hears the server', async () => {
      const { context, page } = await signedIn();
      const box = page.locator('form[action="/connections/mailbox"]');
      await box.getByLabel('Name', { exact: true }).fill('Shop mailbox');
      await box.getByLabel('Mail server (SMTP host)').fill('127.0.0.1');
      await box.getByLabel('Port', { exact: true }).fill('2525');
      await box.getByLabel('Password', { exact: true }).fill(SMTP_PASS);
      await box.getByLabel('From address').fill('Quay Bakery <owner@quay.test>');
      await expect(box.getByLabel('Inbox port').inputValue()).resolves.toBe('993');
      await expect(box.getByLabel('Folder').inputValue()).resolves.toBe('INBOX');
      await box.getByLabel('Inbox server (IMAP host)').fill(imap.host);
      await box.getByLabel('Inbox port').fill(String(imap.port));
      await box.getByLabel('Inbox security').selectOption('none');
      await box.getByLabel('Inbox user name').fill(imap.user);
      await box.getByLabel('Inbox password').fill(imap.pass);
      await box.getByRole('button', { name: 'Add the mailbox' }).click();
      await page.getByRole('status').filter({ hasText: 'The mailbox "Shop mailbox" is added.' }).waitFor();

      const [stored] = await connectionsWithConfig(store.db, desk.id);
      expect(stored?.config.imap).toEqual({
        host: imap.host,
        port: imap.port,
        secure: false,
        user: imap.user,
        pass: imap.pass,
        mailbox: 'INBOX',
      });
      expect(await sealedRow(stored!.id)).not.toContain(imap.pass);
      expect(await page.content()).not.toContain(imap.pass);
      await expect(box.getByLabel('Inbox password').inputValue()).resolves.toBe('');
      await expect(page.locator('#mailbox-imap_pass-hint').textContent()).resolves.toContain(
        'A password for the inbox is stored',
      );
      await expect(box.getByLabel('Inbox security').inputValue()).resolves.toBe('none');

      await page.getByRole('button', { name: 'Check the inbox' }).click();
      await page.locator('#inbox-outcome').waitFor();
      await expect(page.locator('#inbox-outcome').textContent()).resolves.toBe(
        'The inbox answered: 1 message in INBOX.',
      );
      await expect(page.locator('#inbox-outcome').getAttribute('role')).resolves.toBe('status');
      await expectAccessible(page);
      await screenshots(page, 'connections-inbox', [1280, 390]);

      // Saved again with the inbox password left empty, the stored one stays and still signs in.
      await box.getByLabel('Folder').fill('');
      await box.getByRole('button', { name: 'Save the mailbox' }).click();
      await page.getByRole('status').filter({ hasText: 'is saved.' }).waitFor();
      const kept = (await connectionById(store.db, desk.id, stored!.id))?.config;
      expect(kept?.imap).toMatchObject({ pass: imap.pass, mailbox: 'INBOX' });
      expect(kept?.pass).toBe(SMTP_PASS);
      await page.getByRole('button', { name: 'Check the inbox' }).click();
      await page.getByRole('status').filter({ hasText: 'The inbox answered' }).waitFor();
      await context.close();
    }, 120_000);

    it("reports a wrong password in the server's words", async () => {
      const { context, page } = await signedIn();
      const box = page.locator('form[action="/connections/mailbox"]');
      await box.getByLabel('Inbox password').fill('not-the-pass-7');
      await box.getByRole('button', { name: 'Save the mailbox' }).click();
      await page.getByRole('status').filter({ hasText: 'is saved.' }).waitFor();
      await page.getByRole('button', { name: 'Check the inbox' }).click();
      await page.getByRole('alert').filter({ hasText: 'refused the login' }).waitFor();
      const said = await page.locator('#inbox-outcome').textContent();
      expect(said).toContain(`The mail server at ${imap.host}:${imap.port} refused the login`);
      expect(said).toMatch(/AUTHENTICATIONFAILED|Authentication failed/i);
      expect(await page.content()).not.toContain('not-the-pass-7');
      await expectAccessible(page);
      await screenshots(page, 'connections-inbox-refused', [1280, 390]);

      const checks = (await events()).filter((e) => e.kind === 'inbox_checked');
      expect(checks.map((e) => e.data.ok)).toEqual([false, true, true]);
      const all = JSON.stringify(await events());
      expect(all).not.toContain('not-the-pass-7');
      expect(all).not.toContain(imap.pass);

      // The desk's own reading meets the same refusal, and the page says so until a pass reads again.
      const read = await runMailPass(api.deps, { desk: desk.slug });
      expect(read.mailboxes[0]).toMatchObject({ status: 'error' });
      await page.goto(`${server.base}/connections`);
      const fault = await page.locator('#inbox-fault').textContent();
      expect(fault).toContain("The desk could not read this mailbox's inbox when it last tried:");
      expect(fault).toContain(`The mail server at ${imap.host}:${imap.port} refused the login`);
      expect(fault).toContain('messages still go out');
      await expect(page.getByRole('alert').filter({ hasText: 'could not read' }).count()).resolves.toBe(1);
      await expectAccessible(page);
      await screenshots(page, 'connections-inbox-fault', [1280, 390]);
      await context.close();
    }, 120_000);

    it('refuses bad inbox settings beside the fields, keeping what was typed and writing nothing', async () => {
      const { context, page } = await signedIn();
      const before = await connectionsWithConfig(store.db, desk.id);
      const box = page.locator('form[action="/connections/mailbox"]');
      await box.getByLabel('Inbox server (IMAP host)').fill('imap example');
      await box.getByLabel('Inbox port').fill('nine');
      await box.getByLabel('Inbox user name').fill('');
      await box.getByLabel('Inbox password').fill('typed-secret-3');
      await box.getByRole('button', { name: 'Save the mailbox' }).click();
      await page.locator('#mailbox-imap_host-error').waitFor();
      await expect(page.locator('#mailbox-imap_host-error').textContent()).resolves.toContain('has a space in it');
      await expect(page.locator('#mailbox-imap_port-error').textContent()).resolves.toContain('"nine" is not a port');
      await expect(page.locator('#mailbox-imap_user-error').textContent()).resolves.toContain(
        'The user name the inbox signs in with is required.',
      );
      await expect(box.getByLabel('Inbox port').inputValue()).resolves.toBe('nine');
      await expect(box.getByLabel('Inbox server (IMAP host)').inputValue()).resolves.toBe('imap example');
      await expect(box.getByLabel('Inbox port').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await page.content()).not.toContain('typed-secret-3');
      expect(await connectionsWithConfig(store.db, desk.id)).toEqual(before);
      await expectAccessible(page);
      await context.close();
    }, 120_000);

    it('marks a wrong inbox field beside asking for the inbox password again, and refuses control characters', async () => {
      const { context, page } = await signedIn();
      const before = await connectionsWithConfig(store.db, desk.id);
      const box = page.locator('form[action="/connections/mailbox"]');
      await box.getByLabel('Inbox port').fill('abc');
      await box.getByRole('button', { name: 'Save the mailbox' }).click();
      await page.locator('#mailbox-imap_port-error').waitFor();
      await expect(page.locator('#mailbox-imap_port-error').textContent()).resolves.toContain('"abc" is not a port');
      await expect(page.locator('#mailbox-imap_pass-error').textContent()).resolves.toContain(
        'Type the inbox password again',
      );

      await page.goto(`${server.base}/connections`);
      await box.getByLabel('Folder').fill('IN\tBOX');
      await box.getByRole('button', { name: 'Save the mailbox' }).click();
      await page.locator('#mailbox-imap_mailbox-error').waitFor();
      await expect(page.locator('#mailbox-imap_mailbox-error').textContent()).resolves.toContain(
        'another control character',
      );
      expect(await connectionsWithConfig(store.db, desk.id)).toEqual(before);
      await context.close();
    }, 120_000);

    it('removes the inbox, its password with it, when its server, user name and password are emptied', async () => {
      const { context, page } = await signedIn();
      const box = page.locator('form[action="/connections/mailbox"]');
      await box.getByLabel('Inbox server (IMAP host)').fill('');
      await box.getByLabel('Inbox user name').fill('');
      await box.getByRole('button', { name: 'Save the mailbox' }).click();
      await page.getByRole('status').filter({ hasText: 'is saved.' }).waitFor();
      const [stored] = await connectionsWithConfig(store.db, desk.id);
      expect(stored?.config.imap).toBeNull();
      expect(stored?.config.pass).toBe(SMTP_PASS);
      await expect(page.locator('#mailbox-imap_pass-hint').textContent()).resolves.toBe(
        'No password for the inbox is stored.',
      );
      // The fault from when it had an inbox goes with it, on the page and to API clients.
      await expect(page.locator('#inbox-fault').count()).resolves.toBe(0);
      const listed = (await api.call('GET', '/api/v1/connections', { key: deskKey })).json().data.items;
      expect(listed).toEqual([expect.objectContaining({ id: stored!.id, reason: null })]);
      await page.getByRole('button', { name: 'Check the inbox' }).click();
      await page.getByRole('alert').filter({ hasText: 'Add the inbox server' }).waitFor();

      // A port, security or folder typed with no server begins an inbox: its server is asked for.
      await page.goto(`${server.base}/connections`);
      await box.getByLabel('Inbox port').fill('143');
      await box.getByLabel('Inbox security').selectOption('none');
      await box.getByLabel('Folder').fill('Replies');
      await box.getByRole('button', { name: 'Save the mailbox' }).click();
      await page.locator('#mailbox-imap_host-error').waitFor();
      await expect(page.locator('#mailbox-imap_host-error').textContent()).resolves.toContain(
        'The inbox server is required',
      );
      await expect(box.getByLabel('Folder').inputValue()).resolves.toBe('Replies');
      expect((await connectionsWithConfig(store.db, desk.id))[0]?.config.imap).toBeNull();
      await context.close();
    }, 120_000);
  },
);
