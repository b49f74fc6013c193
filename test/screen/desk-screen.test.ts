import path from 'node:path';
import { insertActivity } from '../../src/store/repositories/activity.ts';
import { MAX_NOTES } from '../../src/domain/work/compose.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { deskContext } from '../../src/domain/context.ts';
import { addDays } from '../../src/domain/dates.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { listWork } from '../../src/domain/work/list.ts';
import { addSections } from '../../src/domain/desks/sections.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { signOutDesk } from '../../src/domain/owner/sign-in.ts';
import type { DeskRow } from '../../src/store/schema.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { addArrangement, addConnection } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { startPortal, type Portal } from '../helpers/portal.ts';
import { startSmtpServer, type TestSmtp, loopbackMailbox } from '../helpers/smtp.ts';
import { makeLoginConnection, makePlaybook, vatSteps } from '../http/run-helpers.ts';
import {
  agreeToLink,
  CHROMIUM,
  CHROMIUM_PRESENT,
  expectAccessible,
  launch,
  screenshots,
  SHOTS,
  startScreenServer,
  type ScreenServer,
} from './helpers.ts';

// The owner's screen in a real browser: sign in by link, read the desk, and act on rows.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

const TODAY = TEST_NOW.slice(0, 10);

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)('the desk screen ($name)', ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let smtp: TestSmtp;
  let portal: Portal;
  let browser: Browser;
  let desk: DeskRow;
  let other: { desk: DeskRow; rowId: number };
  const rows = {} as Record<
    'approve' | 'keyboard' | 'double' | 'prepare' | 'snooze' | 'done' | 'vat' | 'script',
    number
  >;

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer();
    portal = await startPortal();
    server = await startScreenServer(store);
    browser = await launch();

    ({ desk } = await makeDesk(store.db, { name: 'Harbour Books', grants: ['file'] }));
    await addConnection(store.db, desk.id, {
      config: loopbackMailbox(smtp.port, 'Harbour Books <owner@harbour.test>'),
    });
    const login = await makeLoginConnection(store.db, desk.id);
    const pb = await makePlaybook(store.db, desk.id, 'file-vat-return', vatSteps(portal.url), login.id);
    const lease = await addArrangement(store.db, desk.id, { name: 'Quay Street lease' });
    const approve = async (title: string, subject: string) => {
      const w = await makeWork(store.db, desk.id, {
        title,
        class: 'reach_out',
        contact_name: 'Jo Lane',
        contact_email: 'jo@acme.test',
        due_date: addDays(TODAY, 4),
        priority: 60,
      });
      await makeDraft(store.db, desk.id, w.id, {
        subject,
        body: 'Hello Jo,\n\nCould you confirm?\n',
        to: 'jo@acme.test',
      });
      return w.id;
    };
    rows.approve = await approve('Confirm the quay delivery', 'Delivery slot');
    rows.keyboard = await approve('Confirm the stock count', 'Stock count');
    rows.double = await approve('Confirm the van hire', 'Van hire');
    rows.prepare = (
      await makeWork(store.db, desk.id, {
        title: 'Ask for the boiler quote',
        class: 'commit',
        contact_name: 'Sam Heat',
        contact_email: 'sam@heat.test',
        due_date: addDays(TODAY, 9),
      })
    ).id;
    rows.snooze = (
      await makeWork(store.db, desk.id, {
        title: 'Renew the street licence',
        kind: 'licence_renewal',
        due_date: addDays(TODAY, 2),
        priority: 40,
      })
    ).id;
    rows.done = (
      await makeWork(store.db, desk.id, {
        title: 'Sweep the yard',
        due_date: addDays(TODAY, -1),
        arrangement_id: lease.id,
      })
    ).id;
    rows.vat = (
      await makeWork(store.db, desk.id, {
        title: 'File VAT return',
        kind: 'filing',
        class: 'file',
        playbook_id: pb.id,
        due_date: addDays(TODAY, -2),
        priority: 80,
      })
    ).id;
    rows.script = (
      await makeWork(store.db, desk.id, {
        title: '<script>window.pwned = 1</script>Odd title',
        contact_email: 'x@y.test',
        class: 'reach_out',
      })
    ).id;
    await makeDraft(store.db, desk.id, rows.script, {
      subject: '<img src=x onerror="window.pwned=2">',
      body: '<script>window.pwned = 3</script>',
    });

    const o = await makeDesk(store.db, { name: 'Other Shop' });
    other = { desk: o.desk, rowId: (await makeWork(store.db, o.desk.id, { title: 'Not yours' })).id };
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await portal?.close();
    await smtp?.close();
    await store?.close();
  });

  async function signedIn(
    deskId = desk.id,
    o: { width?: number; script?: boolean } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: { width: o.width ?? 1440, height: 900 },
      javaScriptEnabled: o.script ?? true,
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await agreeToLink(page, await server.link(deskId));
    return { context, page };
  }

  it("a sign-in link opens the desk once: counts, and the queue in the API's order", async () => {
    const { context, page } = await signedIn();
    await expect.poll(() => page.url()).toBe(`${server.base}/`);
    await page.getByRole('heading', { level: 1, name: 'Harbour Books', exact: true }).waitFor();
    const api = await listWork(deskContext(server.deps, desk, { type: 'owner', name: 'owner' }), {});
    const titles = await page.locator('ol.queue > li header a').allTextContents();
    expect(titles).toEqual(api.items.map((i) => i.title));
    for (const i of api.items) {
      if (i.action)
        await expect(
          page.locator('ol.queue > li').filter({ hasText: i.title }).locator('strong').first().textContent(),
        ).resolves.toBe(i.action.label);
    }
    await expect(page.locator('.counts').textContent()).resolves.toMatch(
      /need(s)? your OK.*the desk may do.*waiting on an answer.*done today/,
    );
    // Overdue from the day after its due date (D9): the date said is the day it was due.
    const vat = page.locator('ol.queue > li').filter({ hasText: 'File VAT return' });
    await expect(vat.locator('.overdue').textContent()).resolves.toBe(`Overdue: due ${addDays(TODAY, -2)}`);
    await expectAccessible(page);
    await screenshots(page, 'desk');

    // Filters: only filing rows.
    await page.getByLabel('Kind').selectOption('filing');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/kind=filing/);
    expect(await page.locator('ol.queue > li header a').allTextContents()).toEqual(['File VAT return']);
    // The filter still offers every kind of open row, not only those on the page shown.
    const kinds = await page.getByLabel('Kind').locator('option').allTextContents();
    expect(kinds).toEqual(expect.arrayContaining(['filing', 'general', 'licence_renewal']));
    await expect(page.getByText(/^Showing 1 matching row; \d+ open in all\.$/).count()).resolves.toBe(1);
    await context.close();
  });

  it('a link opened while signed out asks first, and is used only when the owner agrees', async () => {
    const url = await server.link(desk.id);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      const asked = await page.goto(url);
      expect(asked?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Sign in to Harbour Books?' }).waitFor();
      // The button has the focus, so Enter agrees.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
        .toBe('Sign in to Harbour Books');
      expect((await context.cookies()).some((c) => c.name === 'desk_session')).toBe(false);
      await expectAccessible(page);
      await screenshots(page, 'sign-in-confirm');

      // Opened again (a second tab, a chat program's preview): still unused, still asked.
      await page.goto(url);
      // Enter agrees once the button has the focus; pressed before the page gives it, it does nothing.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
        .toBe('Sign in to Harbour Books');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Harbour Books', exact: true }).waitFor();
      expect(page.url()).toBe(`${server.base}/`);
      expect((await context.cookies()).some((c) => c.name === 'desk_session')).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('a used or expired link shows the sign-in page saying so and starts no session', async () => {
    const url = await server.link(desk.id);
    const first = await browser.newContext();
    await agreeToLink(await first.newPage(), url);
    await first.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    const used = await page.goto(url);
    expect(used?.status()).toBe(401);
    await page.getByText('already been used').waitFor();
    expect((await context.cookies()).some((c) => c.name === 'desk_session')).toBe(false);
    await expectAccessible(page);
    await screenshots(page, 'sign-in');

    const late = await server.link(desk.id);
    server.clock.advance(16 * 60_000);
    try {
      await page.goto(late);
      await page.getByText('has expired').waitFor();
    } finally {
      server.clock.set(TEST_NOW);
    }
    // A link made before every browser was signed out says why it no longer works.
    const cancelled = await server.link(desk.id);
    await signOutDesk(store.db, desk.id, server.clock.now());
    await page.goto(cancelled);
    await page.getByText('That sign-in link was cancelled when every browser of the desk was signed out.').waitFor();
    expect((await context.cookies()).some((c) => c.name === 'desk_session')).toBe(false);
    const desk404 = await page.goto(`${server.base}/work/${rows.snooze}`);
    expect(page.url()).toBe(`${server.base}/`);
    expect(desk404?.status()).toBe(401);
    await context.close();
  });

  it('a link for another desk asks before it switches: staying keeps this desk, agreeing opens the other', async () => {
    const { context, page } = await signedIn();
    try {
      await page.getByRole('heading', { level: 1, name: 'Harbour Books', exact: true }).waitFor();
      const url = await server.link(other.desk.id);
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: 'Sign in to Other Shop?' }).waitFor();
      await page
        .getByText(
          `This browser is signed in to Harbour Books, at the address ${desk.slug}. The link you opened signs it in to Other Shop, at the address ${other.desk.slug}, instead`,
          { exact: false },
        )
        .waitFor();
      await expectAccessible(page);
      await screenshots(page, 'switch-desk');

      await page.getByRole('link', { name: 'Stay on Harbour Books' }).click();
      await page.getByRole('heading', { level: 1, name: 'Harbour Books', exact: true }).waitFor();

      // Staying left the link unused: it still opens the question, and agreeing switches.
      await page.goto(url);
      await page.getByRole('button', { name: 'Sign in to Other Shop' }).click();
      await page.getByRole('heading', { level: 1, name: 'Other Shop', exact: true }).waitFor();
      expect(page.url()).toBe(`${server.base}/`);
      await page.getByRole('link', { name: 'Not yours' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('approves and sends an edited draft: the mail server receives one message with the edited subject', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.approve}`);
    await page.getByLabel('Subject').fill('Delivery slot: Tuesday 9am');
    await page.getByLabel('Message', { exact: true }).fill('Hello Jo,\n\nTuesday at 9am suits us.\n');
    await expectAccessible(page);
    await screenshots(page, 'row-approve');
    const before = smtp.received.length;
    await page.getByRole('button', { name: 'Approve and send' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent to Jo Lane' }).waitFor();
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)!.raw).toContain('Subject: Delivery slot: Tuesday 9am');
    expect(smtp.received.at(-1)!.raw).toContain('Tuesday at 9am suits us.');
    await context.close();
  });

  it('approve and send works with the keyboard alone', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.keyboard}`);
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    for (let i = 0; i < 40 && (await focusedId()) !== 'approve-subject'; i++) await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('approve-subject');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Stock count on Friday');
    await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('approve-body');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Approve and send');
    // The focused button shows a solid ring, not Pico's pale shadow.
    const ring = await page.evaluate(() => {
      const st = getComputedStyle(document.activeElement!);
      return `${st.outlineStyle} ${st.outlineWidth}`;
    });
    expect(ring).toBe('solid 3px');
    await page.screenshot({ path: path.join(SHOTS, 'focus-approve.png') });
    const before = smtp.received.length;
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Sent to' }).waitFor();
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)!.raw).toContain('Subject: Stock count on Friday');
    await context.close();
  });

  it('sending the same form twice sends once', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.double}`);
    const before = smtp.received.length;
    const statuses = await page.evaluate(async () => {
      const form = document.querySelector('form[action$="/approve"]') as HTMLFormElement;
      const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
      const post = () =>
        fetch(form.action, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }).then((r) => r.status);
      return Promise.all([post(), post()]);
    });
    expect(statuses).toEqual([200, 200]);
    expect(smtp.received.length).toBe(before + 1);
    await page.reload();
    await page.getByRole('button', { name: 'Approve and send' }).waitFor({ state: 'detached' });
    await context.close();
  });

  it('a second press in the moment after the first sends nothing more, and a page that stopped loading can be sent again', async () => {
    const w = await makeWork(store.db, desk.id, { title: 'Hold the line', due_date: addDays(TODAY, 5) });
    const { context, page } = await signedIn();
    await page.clock.install({ time: new Date(TEST_NOW) });
    const sent: string[] = [];
    // The server never answers: the page waits, as on a send that hangs.
    await page.route(`**/work/${w.id}/snooze`, (route) => {
      sent.push(route.request().postData() ?? '');
    });
    await page.goto(`${server.base}/work/${w.id}`);
    const snooze = page.getByRole('button', { name: 'Snooze', exact: true });
    await snooze.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect.poll(() => sent.length).toBe(1);
    // The owner stops the page and, a few seconds on, presses again.
    await (await context.newCDPSession(page)).send('Page.stopLoading');
    await page.clock.fastForward(4000);
    expect(sent).toHaveLength(1);
    await page.keyboard.press('Enter');
    await expect.poll(() => sent.length).toBe(2);
    // The same form, so the same idempotency key: the server does the work once.
    expect(sent[1]).toBe(sent[0]);
    await context.close();
  });

  it('"Prepare this" drafts the message, and the row then asks to approve it', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.prepare}`);
    await page.getByRole('button', { name: 'Prepare this' }).click();
    const said = page.getByRole('status').filter({ hasText: 'The desk prepared a message to sam@heat.test' });
    await said.waitFor();
    await expect(said.getAttribute('class')).resolves.toBe('notice');
    await page.getByRole('button', { name: 'Approve and send' }).waitFor();
    expect(await page.getByLabel('Subject').inputValue()).not.toBe('');
    await context.close();
  });

  it('a failed send is drafted again as it was approved, and approved from the row like any draft', async () => {
    const w = await makeWork(store.db, desk.id, {
      title: 'Confirm the skip hire',
      class: 'reach_out',
      contact_email: 'skips@hire.test',
      due_date: addDays(TODAY, 4),
    });
    await makeDraft(store.db, desk.id, w.id, {
      subject: 'Skip hire',
      body: 'Hello,\n\nIs Friday fine?\n',
      to: 'skips@hire.test',
    });
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${w.id}`);
    // A prepared message is finished by approving or closing: no "Mark done" that would send it.
    await expect(page.getByRole('button', { name: 'Mark done' }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'closing the row' }).waitFor();
    await page.getByLabel('Subject').fill('Skip hire on Friday');
    smtp.setMode('refuse');
    try {
      await page.getByRole('button', { name: 'Approve and send' }).click();
      // The send failed: said in the colour of a refusal, not as a thing done.
      const said = page.getByRole('alert').filter({ hasText: 'Not sent:' });
      await said.waitFor();
      await expect(said.getAttribute('class')).resolves.toBe('notice refused');
      // The message itself says it did not go, and why, not only that it was approved.
      const messages = page.getByRole('region', { name: 'Messages' });
      await expect(messages.getByText(/^The mail server refused the message: 550 /).count()).resolves.toBe(1);
      await expectAccessible(page);
      await screenshots(page, 'row-unsent');
      await page.getByRole('button', { name: 'Needs a look' }).click();
    } finally {
      smtp.setMode('accept');
    }
    await page.getByRole('button', { name: 'Approve and send' }).waitFor();
    await expect(page.getByLabel('Subject').inputValue()).resolves.toBe('Skip hire on Friday');
    const before = smtp.received.length;
    await page.getByRole('button', { name: 'Approve and send' }).click();
    await page.getByRole('status').filter({ hasText: 'skips@hire.test' }).waitFor();
    expect(smtp.received.slice(before).map((m) => m.raw)).toEqual([expect.stringContaining('Skip hire on Friday')]);
    await context.close();
  });

  it('a row given to a person shows "Check with" as a reminder, not a button that takes the row', async () => {
    const w = await makeWork(store.db, desk.id, { title: 'Read the meter', needs_person: 1 });
    await store.db.updateTable('work').set({ assignee: 'Sam' }).where('id', '=', w.id).execute();
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${w.id}`);
    await page.getByText('Check with Sam', { exact: true }).waitFor();
    await expect(page.getByRole('button', { name: 'Check with Sam' }).count()).resolves.toBe(0);
    expect((await findWork(store.db, desk.id, w.id))!.assignee).toBe('Sam');
    await context.close();
  });

  it('snooze moves the due date; a bad number of days is refused beside the field and writes nothing', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.snooze}`);
    await page.getByLabel('Snooze for how many days').fill('0');
    const refused = page.waitForResponse((r) => r.url().endsWith('/snooze'));
    await page.getByRole('button', { name: 'Snooze' }).click();
    expect((await refused).status()).toBe(400);
    // Said in the owner's words; the API keeps its own (test/http).
    await expect(page.locator('#snooze-days-error').textContent()).resolves.toBe(
      'Snooze for a whole number of days from 1 to 365.',
    );
    expect(await page.getByLabel('Snooze for how many days').getAttribute('aria-invalid')).toBe('true');
    // The refused field has the focus, so the page opens at the mistake, not at its top.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('snooze-days');
    expect((await findWork(store.db, desk.id, rows.snooze))!.due_date).toBe(addDays(TODAY, 2));
    await expectAccessible(page);
    await screenshots(page, 'row-error');

    await page.getByLabel('Snooze for how many days').fill('5');
    await page.getByRole('button', { name: 'Snooze' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `now due ${addDays(TODAY, 7)}` })
      .waitFor();
    expect((await findWork(store.db, desk.id, rows.snooze))!.due_date).toBe(addDays(TODAY, 7));
    // The page after the form is the row's own address: a reload shows the row again, sends
    // nothing, and the notice said once is not said again.
    expect(page.url()).toBe(`${server.base}/work/${rows.snooze}`);
    const again = await page.reload();
    expect(again?.status()).toBe(200);
    expect(again?.request().method()).toBe('GET');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect(page.getByRole('status').filter({ hasText: 'now due' }).count()).resolves.toBe(0);
    expect((await findWork(store.db, desk.id, rows.snooze))!.due_date).toBe(addDays(TODAY, 7));
    await context.close();
  });

  it("adds a note on the row's arrangement, and marks the row done with a note", async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.done}`);
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.locator('#note-body-error').textContent()).resolves.toBe(
      'Write something in the note before adding it.',
    );
    const noteBox = page.getByLabel('Note on Quay Street lease');
    // Notes are quoted in the messages the desk prepares: the box says so before one is written.
    const described = (await noteBox.getAttribute('aria-describedby'))!.split(' ');
    await expect(page.locator(`#${described[0]}`).textContent()).resolves.toBe(
      `Messages the desk prepares on Quay Street lease quote its ${MAX_NOTES} newest notes: write only what the people they go to may read.`,
    );
    await noteBox.fill('Landlord prefers calls.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('status').filter({ hasText: 'Note added' }).waitFor();

    await page.getByLabel('Note on finishing the row (optional)').fill('Swept on Monday.');
    await page.getByRole('button', { name: 'Mark done' }).click();
    await page.getByRole('status').filter({ hasText: 'Marked done' }).waitFor();
    const row = (await findWork(store.db, desk.id, rows.done))!;
    expect(row.status).toBe('done');
    expect(row.detail).toContain('Swept on Monday.');
    await page.getByText('owner marked this done. Note: Swept on Monday.').waitFor();
    // The row's details, the note among them, are one of its labelled fields.
    await expect(page.getByRole('definition').filter({ hasText: 'Swept on Monday.' }).count()).resolves.toBe(1);
    await expect(page.locator('dl.fields dt').allTextContents()).resolves.toContain('Details');
    // Finished: its date is only a date, neither overdue nor coming.
    const due = await page.locator('dl.fields dt:text-is("Due") + dd').textContent();
    expect(due).not.toMatch(/overdue|in \d+ day|today/);
    await context.close();
  });

  it('"Mark done" on a page drawn before a message was prepared sends nothing and says why', async () => {
    const stale = await makeWork(store.db, desk.id, {
      title: 'Ask about the oven service',
      contact_name: 'Sam Oven',
      contact_email: 'sam@ovens.test',
    });
    const { context, page } = await signedIn();
    try {
      await page.goto(`${server.base}/work/${stale.id}`);
      await page.getByRole('button', { name: 'Mark done' }).waitFor();
      // Another tab prepares a message on the row after this page was drawn.
      const draft = await makeDraft(store.db, desk.id, stale.id, { subject: 'Oven service', to: 'sam@ovens.test' });
      const before = smtp.received.length;
      await page.getByRole('button', { name: 'Mark done' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'A message was prepared on this row since this page was drawn, so nothing was sent' })
        .waitFor();
      expect(smtp.received.length).toBe(before);
      expect((await findWork(store.db, desk.id, stale.id))!.status).toBe('open');
      const kept = await store.db.selectFrom('activity').select('status').where('id', '=', draft.id).executeTakeFirst();
      expect(kept?.status).toBe('drafted');
    } finally {
      await context.close();
    }
  });

  it('"Approve and send" on a page drawn before the contact changed sends nothing, keeps the subject the owner typed, and shows the rest as it is now', async () => {
    const stale = await makeWork(store.db, desk.id, {
      title: 'Confirm the kiln delivery',
      contact_name: 'Pat Kiln',
      contact_email: 'pat@kilns.test',
    });
    const draft = await makeDraft(store.db, desk.id, stale.id, {
      subject: 'Kiln delivery',
      body: 'Hello Pat Kiln,\n\nIs Thursday fine?',
      to: 'pat@kilns.test',
    });
    const { context, page } = await signedIn();
    try {
      await page.goto(`${server.base}/work/${stale.id}`);
      await page.getByText('To: pat@kilns.test').waitFor();
      await page.getByLabel('Subject').fill('Kiln delivery on Thursday');
      // The command line corrects the contact after this page was drawn: the message follows it.
      const owner = deskContext(server.deps, desk, { type: 'owner', name: 'owner' });
      await editWork(owner, stale.id, { contact_email: 'pat@kiln-works.test', contact_name: 'Patricia Kiln' });
      const before = smtp.received.length;
      await page.getByRole('button', { name: 'Approve and send' }).click();
      const alert = page
        .getByRole('alert')
        .filter({ hasText: 'The prepared message was changed since this page was drawn' });
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toMatch(
        /so nothing was sent\..*Your change to the subject is kept in the form below, not saved yet\./,
      );
      expect(smtp.received.length).toBe(before);
      expect((await findWork(store.db, desk.id, stale.id))!.status).toBe('open');
      const kept = await store.db
        .selectFrom('activity')
        .select(['status', 'subject'])
        .where('id', '=', draft.id)
        .executeTakeFirst();
      expect(kept).toEqual({ status: 'drafted', subject: 'Kiln delivery' });
      // Drawn again, the page shows where it goes now and what it says, around the subject the
      // owner typed; approving that sends the owner's subject to the new address.
      await page.getByText('To: pat@kiln-works.test').waitFor();
      await expect(page.getByLabel('Subject').inputValue()).resolves.toBe('Kiln delivery on Thursday');
      await expect(page.getByRole('textbox', { name: 'Message' }).inputValue()).resolves.toBe(
        'Hello Patricia Kiln,\n\nIs Thursday fine?',
      );
      await expectAccessible(page);
      await screenshots(page, 'row-changed-since');
      await page.getByRole('button', { name: 'Approve and send' }).click();
      await page.getByRole('status').filter({ hasText: 'Sent to Patricia Kiln <pat@kiln-works.test>' }).waitFor();
      const sent = smtp.received.slice(before);
      expect(sent.map((m) => m.to)).toEqual([['pat@kiln-works.test']]);
      expect(sent[0]!.raw).toMatch(/^Subject: Kiln delivery on Thursday\r?$/m);
    } finally {
      await context.close();
    }
  });

  it('runs a playbook row and shows its steps as they happen, then the outcome in words', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.vat}`);
    await page.getByRole('button', { name: 'Let the desk do it' }).click();
    // Drawn while the run goes on, so its end reaches the page through the script.
    await page.getByRole('heading', { name: 'Running: File VAT return' }).waitFor();
    await expect(page.title()).resolves.toBe('Running: File VAT return · Harbour Books');
    await page
      .locator('[data-run-finished="yes"], #run-outcome:not(:has-text("working on it"))')
      .first()
      .waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.locator('#run-outcome').textContent(), { timeout: 60_000 })
      .toMatch(/Followed the playbook "file-vat-return" for "File VAT return"; it is done \(VAT-2026-\d{6}\)\./);
    const steps = await page.locator('#run-steps li').allTextContents();
    expect(steps[0]).toBe(`Step 1: goto ${portal.url}/login`);
    expect(steps).toHaveLength(8);
    expect(steps.join('\n')).not.toContain('s3cret');
    expect(portal.submissions).toHaveLength(1);
    expect((await findWork(store.db, desk.id, rows.vat))!.status).toBe('done');
    // Once it has ended, neither the heading nor the tab's title says it is running.
    await page.getByRole('heading', { level: 1, name: 'Run finished: File VAT return' }).waitFor();
    await expect(page.title()).resolves.toBe('Run finished: File VAT return · Harbour Books');
    await expect(page.getByText('None: the desk did this without a browser.').isVisible()).resolves.toBe(false);
    await expectAccessible(page);
    await screenshots(page, 'run');
    await context.close();
  });

  it('the chat box answers and shows the blocks it added', async () => {
    const { context, page } = await signedIn();
    await page.getByLabel('Your question').fill('what is overdue?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.locator('#chat-answer').getByText('You asked:').waitFor();
    await expect(page.locator('#chat-answer .answer').textContent()).resolves.toMatch(/overdue/i);

    // While a question is out the form says so, and says nothing once the answer is in.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/chat', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Your question').fill('what is due?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('status').filter({ hasText: 'Asking the desk…' }).waitFor();
    release();
    await page.locator('#chat-answer').getByText('what is due?').waitFor();
    await expect.poll(() => page.locator('#chat-busy').textContent()).toBe('');
    await page.unroute('**/chat');

    await page.getByLabel('Your question').fill('add a block for invoices');
    // A double click adds one block, not two: the second click is dropped while the first
    // question is out, or, when the first answer came back before it, is a second question that
    // finds the block there (P-chat-16).
    await page.getByRole('button', { name: 'Ask' }).dblclick();
    await page
      .locator('#chat-answer')
      .getByText(/Added to your desk:|The desk already has a block/)
      .waitFor();
    await page.reload();
    await page.locator('#desk-sections h3').first().waitFor();
    const titles = await page.locator('#desk-sections h3').allTextContents();
    expect(titles.filter((t) => /invoice/i.test(t))).toHaveLength(1);

    await page.getByLabel('Your question').fill('   ');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.locator('#chat-answer').getByText('Type a question before asking.').waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('with script off, the page a question brings opens on its answer', async () => {
    const { context, page } = await signedIn(desk.id, { width: 390, script: false });
    try {
      await page.getByLabel('Your question').fill('what is overdue?');
      await page.getByRole('button', { name: 'Ask' }).click();
      await page.locator('#chat-answer').getByText('You asked:').waitFor();
      const top = await page.locator('#chat-answer').evaluate((e) => e.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(900);
      await expect(page.evaluate(() => window.scrollY)).resolves.toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it('a question that never reaches the desk, or that it cannot take, says so where the answer goes', async () => {
    const { context, page } = await signedIn();
    try {
      const question = page.getByLabel('Your question');
      const answer = page.locator('#chat-answer');
      // A question refused first marks the field.
      await question.fill('   ');
      await page.getByRole('button', { name: 'Ask' }).click();
      await answer.getByText('Type a question before asking.').waitFor();
      await expect(question.getAttribute('aria-invalid')).resolves.toBe('true');
      // The network gone (the server stopped, the connection dropped): nothing comes back at all.
      await page.route('**/chat', (route) => route.abort('connectionrefused'));
      await question.fill('what is overdue?');
      await page.getByRole('button', { name: 'Ask' }).click();
      await answer
        .getByRole('alert')
        .filter({ hasText: 'The desk could not be reached, so the question was not asked.' })
        .waitFor();
      // The field's mark went with the refusal it pointed to.
      await expect(question.getAttribute('aria-invalid')).resolves.toBeNull();
      await expect(question.getAttribute('aria-describedby')).resolves.toBeNull();
      await expect.poll(() => page.locator('#chat-busy').textContent()).toBe('');
      await expectAccessible(page);
      // A server that is stopping answers 503.
      await page.unroute('**/chat');
      await page.route('**/chat', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
      await page.getByRole('button', { name: 'Ask' }).click();
      await answer.getByRole('alert').filter({ hasText: 'The desk could not answer just now.' }).waitFor();
      // A form older than the owner's last sign-in is refused, however often it is sent again.
      await page.unroute('**/chat');
      await page.route('**/chat', (route) => route.fulfill({ status: 403, body: 'Refused' }));
      await page.getByRole('button', { name: 'Ask' }).click();
      await answer.getByRole('alert').filter({ hasText: 'Reload the page, then ask again.' }).waitFor();
      // Back again, the same question is answered.
      await page.unroute('**/chat');
      await page.getByRole('button', { name: 'Ask' }).click();
      await answer.getByText('You asked:').waitFor();
      await expect(answer.getByRole('alert').count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });

  it('a block can be taken off the desk page, after a question that names it; the rows it showed stay', async () => {
    const owner = deskContext(server.deps, desk, { type: 'owner', name: 'owner' });
    const {
      added: [added],
    } = await addSections(owner, [{ title: 'Supplier invoices', kinds: ['filing'], why: 'Added from chat.' }]);
    const rows = () =>
      server.deps.store.db
        .selectFrom('work')
        .select(['id', 'status'])
        .where('desk_id', '=', desk.id)
        .orderBy('id')
        .execute();
    const before = await rows();
    expect(before.length).toBeGreaterThan(0);
    const { context, page } = await signedIn();
    try {
      const block = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Supplier invoices' }) });
      await block.getByRole('link', { name: 'Remove "Supplier invoices"' }).click();
      await page.getByRole('heading', { level: 1, name: 'Remove the block "Supplier invoices"?' }).waitFor();
      await page.getByText('The rows it shows stay as they are').waitFor();
      await expectAccessible(page);
      await screenshots(page, 'remove-block');

      // Keeping it goes back to the block, untouched.
      await page.getByRole('link', { name: 'Keep it' }).click();
      await page.getByRole('heading', { level: 3, name: 'Supplier invoices' }).waitFor();

      await block.getByRole('link', { name: 'Remove "Supplier invoices"' }).click();
      await page.getByRole('button', { name: 'Remove it' }).click();
      await page.getByRole('status').filter({ hasText: 'The block "Supplier invoices" is removed.' }).waitFor();
      expect(page.url()).toBe(`${server.base}/`);
      await expect(page.getByRole('heading', { level: 3, name: 'Supplier invoices' }).count()).resolves.toBe(0);
      // The block of other kinds is drawn from the open rows, not kept: it offers no removal.
      await page.getByRole('heading', { level: 3, name: 'Other work' }).waitFor();
      await expect(page.getByRole('link', { name: 'Remove "Other work"' }).count()).resolves.toBe(0);
      expect(await rows()).toEqual(before);
      const removed = await server.deps.store.db
        .selectFrom('events')
        .select(['kind', 'data'])
        .where('desk_id', '=', desk.id)
        .where('kind', '=', 'section_removed')
        .execute();
      expect(removed.map((e) => [e.kind, JSON.parse(e.data)])).toEqual([
        ['section_removed', { section_id: added!.id, title: 'Supplier invoices', by: 'owner' }],
      ]);

      // Its address again (Back, or a second tab) finds nothing to remove.
      const gone = await page.goto(`${server.base}/blocks/${added!.id}/remove`);
      expect(gone?.status()).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('asking from the keyboard keeps the focus in the chat box, and an empty question marks and focuses the field', async () => {
    const { context, page } = await signedIn();
    const question = page.getByLabel('Your question');
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
    await question.fill('what is overdue?');
    await question.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#chat-answer').getByText('You asked:').waitFor();
    await expect.poll(focused).not.toBe('BODY');

    await question.fill('   ');
    await question.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#chat-answer').getByText('Type a question before asking.').waitFor();
    await expect.poll(focused).toBe('chat-text');
    await expect(question.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(
      page.getByRole('textbox', { name: 'Your question', description: 'Type a question before asking.' }).count(),
    ).resolves.toBe(1);
    await expectAccessible(page);

    // Asked again with a question, the field is no longer marked.
    await question.fill('what is overdue?');
    await question.press('Enter');
    await page.locator('#chat-answer').getByText('You asked:').waitFor();
    await expect.poll(() => question.getAttribute('aria-invalid')).toBeNull();
    await expect.poll(focused).toBe('chat-text');
    await context.close();
  });

  it('the record shows the events log and activity', async () => {
    const { context, page } = await signedIn();
    await page.getByRole('link', { name: 'Record' }).click();
    await page.getByRole('heading', { name: "Events: the desk's own log" }).waitFor();
    expect(await page.locator('ol.record').first().locator('li').count()).toBeGreaterThan(0);
    // A message sent (approved in the tests above) says when it went, beside when it was written.
    const sent = page
      .getByRole('region', { name: 'Activity: what was written or sent' })
      .locator('li')
      .filter({ hasText: '· sent ' });
    expect(await sent.count()).toBeGreaterThan(0);
    expect(await sent.first().locator('time').count()).toBe(2);
    // A reply read from the mailbox was received, not sent; a bounced message went and did not arrive.
    const at = new Date(Date.parse(TEST_NOW) - 3_600_000).toISOString();
    const base = { deskId: desk.id, kind: 'message', channel: 'email', body: 'x', at, sentAt: at, workId: rows.vat };
    await insertActivity(store.db, {
      ...base,
      direction: 'inbound',
      status: 'received',
      actor: 'Sam Oven',
      subject: 'Re: Heard back',
    });
    await insertActivity(store.db, {
      ...base,
      direction: 'outbound',
      status: 'approved',
      actor: 'desk',
      subject: 'Bounced away',
      failureReason: 'Mail to sam@… bounced: 550 user unknown.',
    });
    // The log's own words for a row ("work item", as the API has them) read as the screen's.
    await store.db
      .insertInto('events')
      .values({
        desk_id: desk.id,
        kind: 'desk_imported',
        message: 'Desk "Harbour Books" set up from a business file with 3 work items.',
        data: '{}',
        // The newest, so that it is on the first page of the log.
        created_at: new Date(Date.parse(TEST_NOW) + 60_000).toISOString(),
      })
      .execute();
    // Who did it, where the message does not say: the key an API write came with, or the person.
    const later = (s: number) => new Date(Date.parse(TEST_NOW) + s * 1000).toISOString();
    await store.db
      .insertInto('events')
      .values([
        {
          desk_id: desk.id,
          kind: 'api_write',
          message: `POST /api/v1/work/${rows.vat}/snooze`,
          data: JSON.stringify({ key_prefix: 'desk_CiBot12', key_id: 9, status: 200 }),
          created_at: later(30),
        },
        {
          desk_id: desk.id,
          kind: 'completed',
          message: 'Completed "File VAT", waiting on Ana Clear.',
          data: JSON.stringify({ work_id: rows.vat, actor: 'Sam Books' }),
          created_at: later(40),
        },
      ])
      .execute();
    await page.reload();
    const log = page.getByRole('region', { name: "Events: the desk's own log" });
    await log.getByText('desk_imported · Desk "Harbour Books" set up from a business file with 3 rows.').waitFor();
    await expect(log.locator('li').filter({ hasText: 'api_write' }).first().textContent()).resolves.toContain(
      `POST /api/v1/work/${rows.vat}/snooze · by key desk_CiBot12…`,
    );
    const completed = log.locator('li').filter({ hasText: 'Completed "File VAT"' });
    await expect(completed.textContent()).resolves.toContain('waiting on Ana Clear. · by Sam Books · Row');
    await expect(completed.getByRole('link', { name: `Row ${rows.vat}` }).getAttribute('href')).resolves.toBe(
      `/work/${rows.vat}`,
    );
    const activity = page.getByRole('region', { name: 'Activity: what was written or sent' }).locator('li');
    await expect(activity.filter({ hasText: 'Re: Heard back' }).textContent()).resolves.toMatch(
      /· email · received \S.* · Sam Oven ·/,
    );
    await expect(activity.filter({ hasText: 'Bounced away' }).textContent()).resolves.toMatch(
      /· email · sent \S.*, not delivered · desk ·/,
    );
    await expectAccessible(page);
    await screenshots(page, 'record');
    await context.close();
  });

  it('shows <script> in titles and bodies as text, and runs none of it', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${server.base}/work/${rows.script}`);
    await page.getByRole('heading', { level: 1, name: '<script>window.pwned = 1</script>Odd title' }).waitFor();
    await page.getByText('<script>window.pwned = 3</script>').first().waitFor();
    expect(await page.getByLabel('Subject').inputValue()).toBe('<img src=x onerror="window.pwned=2">');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await context.close();
  });

  it("another desk's row is not found, and a POST without the CSRF token is refused with 403", async () => {
    const { context, page } = await signedIn();
    const res = await page.goto(`${server.base}/work/${other.rowId}`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    const post = await page.request.post(`${server.base}/work/${rows.snooze}/snooze`, { form: { days: '3' } });
    expect(post.status()).toBe(403);
    expect((await findWork(store.db, desk.id, rows.snooze))!.due_date).toBe(addDays(TODAY, 7));
    const api = await page.request.get(`${server.base}/api/v1/me`);
    expect(api.status()).toBe(401);
    expect(api.headers()['content-security-policy']).toBeUndefined();
    await context.close();
  });
});
