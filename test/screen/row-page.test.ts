import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { addArrangementNote } from '../../src/domain/arrangements/note.ts';
import { deskContext } from '../../src/domain/context.ts';
import { addDays } from '../../src/domain/dates.ts';
import { setGrant } from '../../src/domain/grants/manage.ts';
import { deriveAction } from '../../src/domain/work/derive.ts';
import { NOTHING_TO_APPROVE } from '../../src/domain/work/complete.ts';
import { closeWork } from '../../src/domain/work/status.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { insertPlaybook } from '../../src/store/repositories/records.ts';
import { when } from '../../src/screen/pages/layout.tsx';
import { TEST_NOW } from '../helpers/app.ts';
import type { DeskRow } from '../../src/store/schema.ts';
import { addArrangement } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork, makeWorkMany } from '../helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox } from '../http/writes-helpers.ts';
import {
  CHROMIUM,
  CHROMIUM_PRESENT,
  expectAccessible,
  launch,
  ownerSession,
  screenshots,
  signIn,
  startScreenServer,
  type ScreenServer,
} from './helpers.ts';

// A row's page and the pages it leads to, read as the owner reads them: a run that has ended
// says so, the notes on the row's arrangement can be read beside the form that adds one, and
// what the row needs is said once.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

const shots = (page: Page, name: string) => screenshots(page, name, [1280, 390]);

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)("a row's page ($name)", ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let browser: Browser;
  let smtp: TestSmtp;
  let desk: DeskRow;

  beforeAll(async () => {
    store = await open();
    server = await startScreenServer(store);
    browser = await launch();
    smtp = await startSmtpServer();
    ({ desk } = await makeDesk(store.db, { name: 'Quay Bakery', grants: ['reach_out'] }));
    await connectMailbox(store.db, desk.id, smtp.port);
  });
  afterAll(async () => {
    await smtp?.close();
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  it('a later page of the queue says its rows are more of the open rows, not all of them', async () => {
    const { desk: busy } = await makeDesk(store.db, { name: 'Busy Bakery' });
    await makeWorkMany(
      store.db,
      busy.id,
      Array.from({ length: 53 }, (_, i) => ({ title: `Order ${i + 1}` })),
    );
    const { context, page } = await signIn(browser, server, busy.id);
    try {
      await page.goto(`${server.base}/`);
      await page.getByText('Showing 50 of 53 open rows.').waitFor();
      await page
        .getByRole('navigation', { name: 'Pages of open work' })
        .getByRole('link', { name: 'Next page' })
        .click();
      await page.getByText('Showing 3 more of 53 open rows.').waitFor();
      await expect(page.getByRole('link', { name: 'Previous page' }).count()).resolves.toBe(1);
    } finally {
      await context.close();
    }
  });

  it('the pager goes forward two pages and back again to the first', async () => {
    const { desk: long } = await makeDesk(store.db, { name: 'Long Queue Bakery' });
    await makeWorkMany(
      store.db,
      long.id,
      Array.from({ length: 110 }, (_, i) => ({ title: `Batch ${i + 1}` })),
    );
    const { context, page } = await signIn(browser, server, long.id);
    const pager = page.getByRole('navigation', { name: 'Pages of open work' });
    const links = async () => (await pager.getByRole('link').allTextContents()).join(', ');
    const firstRow = () =>
      page
        .getByRole('listitem')
        .filter({ hasText: /^Batch \d+/ })
        .first()
        .textContent();
    try {
      await page.goto(`${server.base}/`);
      await page.getByText('Showing 50 of 110 open rows.').waitFor();
      const onFirst = await firstRow();
      expect(await links()).toBe('Next page');
      await pager.getByRole('link', { name: 'Next page' }).click();
      await page.getByText('Showing 50 more of 110 open rows.').waitFor();
      const onSecond = await firstRow();
      expect(onSecond).not.toBe(onFirst);
      await pager.getByRole('link', { name: 'Next page' }).click();
      await page.getByText('Showing 10 more of 110 open rows.').waitFor();
      expect(await links()).toBe('First page, Previous page');
      await expectAccessible(page);
      await shots(page, 'queue-page-3');
      await pager.getByRole('link', { name: 'Previous page' }).click();
      await page.getByText('Showing 50 more of 110 open rows.').waitFor();
      expect(await firstRow()).toBe(onSecond);
      expect(await links()).toBe('Previous page, Next page');
      await pager.getByRole('link', { name: 'Previous page' }).click();
      await page.getByText('Showing 50 of 110 open rows.').waitFor();
      expect(await firstRow()).toBe(onFirst);
      expect(await links()).toBe('Next page');
    } finally {
      await context.close();
    }
  });

  it('a cursor the queue cannot read gives the first page, said as the first page', async () => {
    const { desk: busy } = await makeDesk(store.db, { name: 'Bakery With A Cut Link' });
    await makeWorkMany(
      store.db,
      busy.id,
      Array.from({ length: 53 }, (_, i) => ({ title: `Loaf ${i + 1}` })),
    );
    const { context, page } = await signIn(browser, server, busy.id);
    try {
      await page.goto(`${server.base}/?cursor=garbage`);
      await page.getByText('Showing 50 of 53 open rows.', { exact: true }).waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: 'The page in that address could not be read, so this is the first page of the queue.' })
        .waitFor();
      await expect(page.getByRole('link', { name: 'First page' }).count()).resolves.toBe(0);
      await expect(page.getByRole('link', { name: 'Next page' }).count()).resolves.toBe(1);
      // A queue that fits on one page has no pages to go to, and no empty landmark that says so.
      await page.goto(`${server.base}/?kind=none-such`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expect(page.getByRole('navigation', { name: 'Pages of open work' }).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });

  it('an empty Waiting filter says where the rows waiting on an answer are', async () => {
    const { desk: quiet } = await makeDesk(store.db, { name: 'Bakery Awaiting Sam' });
    await makeWork(store.db, quiet.id, { title: 'Ask Sam for the quote', waiting_on: 'Sam', waiting_since: TEST_NOW });
    const { context, page } = await signIn(browser, server, quiet.id);
    try {
      await page.goto(`${server.base}/?status=waiting`);
      await page
        .getByText(
          'No open rows match these filters; 1 open in all. The 1 row waiting on an answer counted above has another status: filter by Open or In progress to see it.',
          { exact: true },
        )
        .waitFor();
      await page.goto(`${server.base}/?status=in_progress`);
      await page.getByText('No open rows match these filters; 1 open in all.', { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('a run that has ended no longer says it is running, as it ends and when opened again', async () => {
    const { id } = await makeWork(store.db, desk.id, {
      title: 'Ask the window cleaner for a quote',
      class: 'reach_out',
      contact_name: 'Ana Clear',
      contact_email: 'ana@clear.test',
    });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      await page.getByRole('button', { name: 'Let the desk do it' }).click();
      await page.getByRole('heading', { level: 1, name: 'Run finished: Ask the window cleaner for a quote' }).waitFor();
      await expect(page.locator('#run-outcome').textContent()).resolves.toMatch(/Ana Clear/);
      await expect(page.title()).resolves.toBe('Run finished: Ask the window cleaner for a quote · Quay Bakery');
      // A message sent is a run with no steps: the page says so rather than leave the list bare.
      await page.getByText('None: the desk did this without a browser.').waitFor();
      expect(smtp.received.map((m) => m.to[0])).toEqual(['ana@clear.test']);
      await expectAccessible(page);
      await shots(page, 'run-finished');

      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Run finished: Ask the window cleaner for a quote' }).waitFor();
      await expect(page.title()).resolves.toBe('Run finished: Ask the window cleaner for a quote · Quay Bakery');
      await page.getByText('None: the desk did this without a browser.').waitFor();
    } finally {
      await context.close();
    }
  });

  it("shows the newest notes on the row's arrangement beside the form that adds one, newest first", async () => {
    const lease = await addArrangement(store.db, desk.id, { name: 'Yard lease' });
    const owner = deskContext(server.deps, desk, { type: 'owner', name: 'owner' });
    for (let n = 1; n <= 7; n++) await addArrangementNote(owner, lease.id, { body: `Note ${n}.` });
    const { id } = await makeWork(store.db, desk.id, { title: 'Sweep the yard', arrangement_id: lease.id });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      const notes = page.getByRole('list', { name: 'Notes on Yard lease' });
      const stamp = `owner, ${when(TEST_NOW, desk.timezone)}`;
      await expect(notes.getByRole('listitem').allTextContents()).resolves.toEqual(
        [7, 6, 5, 4, 3].map((n) => `Note ${n}.${stamp}`),
      );
      await page.getByText('The newest 5 of 7 notes; the rest are in the Record.').waitFor();

      await page.getByLabel('Note on Yard lease').fill('The landlord prefers calls.');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByRole('status').filter({ hasText: 'Note added' }).waitFor();
      // Written on the screen, the note is the owner's, stamped with the desk's own clock.
      await expect(notes.getByRole('listitem').first().textContent()).resolves.toBe(
        `The landlord prefers calls.${stamp}`,
      );
      await expect(notes.getByRole('listitem').count()).resolves.toBe(5);
      await page.getByText('The newest 5 of 8 notes; the rest are in the Record.').waitFor();
      await expectAccessible(page);
      await shots(page, 'row-notes');

      // A finished row has no form to add one, and its notes can still be read.
      await closeWork(owner, id, {});
      await page.reload();
      await expect(page.getByRole('button', { name: 'Add note' }).count()).resolves.toBe(0);
      await expect(notes.getByRole('listitem').first().textContent()).resolves.toBe(
        `The landlord prefers calls.${stamp}`,
      );
    } finally {
      await context.close();
    }
  });

  it('a row to prepare with nobody to write to says so, and leads to where a contact is given', async () => {
    const playbook = await insertPlaybook(store.db, {
      desk_id: desk.id,
      name: 'file-rates-appeal',
      connection_id: null,
      steps: JSON.stringify([{ goto: 'http://127.0.0.1:9/' }]),
    });
    const row = await makeWork(store.db, desk.id, {
      title: 'File the rates appeal',
      class: 'file',
      playbook_id: playbook,
    });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${row.id}`);
      const needs = page.getByRole('region', { name: 'What it needs' });
      await needs
        .getByText('Prepare this — nobody is named to write to, so no message can be prepared here.', { exact: false })
        .waitFor();
      expect(await needs.getByRole('button').count()).toBe(0);
      await needs.getByRole('link', { name: 'Give the row a contact' }).click();
      await expect.poll(() => page.url()).toBe(`${server.base}/work/${row.id}/edit`);
    } finally {
      await context.close();
    }
  });

  it('says what the row needs once, and the line on what the desk does by itself adds only what it does not say', async () => {
    const owner = deskContext(server.deps, desk, { type: 'owner', name: 'owner' });
    const today = owner.today();
    const rows = {
      prepare: await makeWork(store.db, desk.id, {
        title: 'Book the boiler service',
        class: 'commit',
        contact_name: 'Sam Heat',
        contact_email: 'sam@heat.test',
      }),
      answer: await makeWork(store.db, desk.id, { title: 'Find out who collects the bins' }),
      wait: await makeWork(store.db, desk.id, {
        title: 'Hear back about the awning',
        class: 'reach_out',
        contact_email: 'awning@shade.test',
        waiting_on: 'Shade Ltd',
        waiting_since: addDays(today, -2),
        chase_after_days: 7,
      }),
    };
    const onOwn = {
      prepare: 'The desk will not act on this on its own: "commit" work is not granted, so the desk only prepares it.',
      answer: 'The desk will not act on this on its own.',
      wait: 'The desk will not act on this on its own: Chasing is not granted, so the desk only prepares.',
    };
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      for (const [name, row] of Object.entries(rows) as Array<[keyof typeof rows, (typeof rows)['wait']]>) {
        const hint = deriveAction({
          row,
          hasDraft: false,
          grants: new Set(['reach_out']),
          today,
          timezone: desk.timezone,
        })!.hint;
        await page.goto(`${server.base}/work/${row.id}`);
        const needs = page.getByRole('region', { name: 'What it needs' });
        await expect(needs.getByText(hint).count(), name).resolves.toBe(1);
        await needs.getByText(onOwn[name], { exact: true }).waitFor();
      }
      await shots(page, 'row-waiting');

      // With chasing granted, the wait turns into a chase on a day the line can name.
      const grant = (granted: boolean) =>
        setGrant(store.db, { deskId: desk.id, cls: 'chase', granted, now: TEST_NOW, by: 'owner' });
      await grant(true);
      try {
        await page.reload();
        await page
          .getByRole('region', { name: 'What it needs' })
          .getByText(`The desk acts on this on its own from ${addDays(today, 5)}.`, { exact: true })
          .waitFor();
      } finally {
        await grant(false);
      }
    } finally {
      await context.close();
    }
  });

  it('says an emptied message in the words of the approve form', async () => {
    const { id } = await makeWork(store.db, desk.id, {
      title: 'Confirm the flour delivery',
      class: 'commit',
      contact_email: 'mill@flour.test',
    });
    await makeDraft(store.db, desk.id, id, {
      subject: 'Flour',
      body: 'Hello,\n\nIs Monday fine?\n',
      to: 'mill@flour.test',
    });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      await page.getByLabel('Message', { exact: true }).fill('  ');
      await page.getByRole('button', { name: 'Approve and send' }).click();
      await page.getByText('The message must not be empty.', { exact: true }).waitFor();
      await expect(page.getByLabel('Message', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      expect(smtp.received.map((m) => m.to[0])).not.toContain('mill@flour.test');

      // Both emptied: both said at once, each beside its field.
      await page.getByLabel('Subject', { exact: true }).fill('');
      await page.getByLabel('Message', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Approve and send' }).click();
      await page.getByText('The subject must not be empty.', { exact: true }).waitFor();
      await page.getByText('The message must not be empty.', { exact: true }).waitFor();
      for (const label of ['Subject', 'Message'])
        await expect(page.getByLabel(label, { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      await expectAccessible(page);
      await shots(page, 'row-approve-refused');
      expect(smtp.received.map((m) => m.to[0])).not.toContain('mill@flour.test');
    } finally {
      await context.close();
    }
  });

  it('approving a message left as it was sends its lines as they were, and logs no edit', async () => {
    const { id } = await makeWork(store.db, desk.id, {
      title: 'Confirm the milk delivery',
      class: 'commit',
      contact_email: 'dairy@milk.test',
    });
    const body = 'Hello,\n\nIs Wednesday fine?\n';
    const draft = await makeDraft(store.db, desk.id, id, { subject: 'Milk', body, to: 'dairy@milk.test' });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      await page.getByRole('button', { name: 'Approve and send' }).click();
      await page.getByRole('button', { name: 'Approve and send' }).waitFor({ state: 'detached' });
      const sent = await store.db
        .selectFrom('activity')
        .select(['status', 'body'])
        .where('id', '=', draft.id)
        .executeTakeFirstOrThrow();
      // A browser sends a text box's line breaks as CR LF; the message is the one the desk wrote.
      expect(sent).toEqual({ status: 'sent', body });
      const timeline = await store.db.selectFrom('timeline').select('kind').where('work_id', '=', id).execute();
      expect(timeline.map((t) => t.kind)).not.toContain('draft_edited');
    } finally {
      await context.close();
    }
  });

  it('approving a message the desk sent after the page was drawn does nothing, and says so', async () => {
    const { id } = await makeWork(store.db, desk.id, {
      title: 'Confirm the egg delivery',
      class: 'commit',
      contact_email: 'farm@eggs.test',
    });
    const draft = await makeDraft(store.db, desk.id, id, {
      subject: 'Eggs',
      body: 'Hello,\n\nIs Tuesday fine?\n',
      to: 'farm@eggs.test',
    });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      // Sent meanwhile, as the desk does on its own.
      await store.db
        .updateTable('activity')
        .set({ status: 'sent', sent_at: TEST_NOW, approved_at: TEST_NOW })
        .where('id', '=', draft.id)
        .execute();
      await page.getByRole('button', { name: 'Approve and send' }).click();
      await page.getByRole('alert').filter({ hasText: NOTHING_TO_APPROVE }).waitFor();
      await shots(page, 'row-approve-gone');
      expect((await findWork(store.db, desk.id, id))?.status).toBe('open');
      expect(smtp.received.map((m) => m.to[0])).not.toContain('farm@eggs.test');
    } finally {
      await context.close();
    }
  });

  it('takes a row that needs a person as the owner\'s own: "yours", never "with owner"', async () => {
    const { id } = await makeWork(store.db, desk.id, { title: 'Sign the new lease', needs_person: 1 });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      const other = await context.newPage();
      await other.goto(`${server.base}/work/${id}`);
      await page.getByRole('button', { name: 'Assign to me' }).click();
      await page.getByRole('status').filter({ hasText: 'This row is now yours.' }).waitFor();
      await expect(page.locator('#assignee-now').textContent()).resolves.toContain('Yours: you took it on');
      await page.getByText('owner took this on.').first().waitFor();
      await expect(page.getByText(/with owner/i).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Assign to me' }).count()).resolves.toBe(0);
      await shots(page, 'row-yours');
      // Pressed again in a tab drawn before it was taken: nothing is written twice.
      await other.getByRole('button', { name: 'Assign to me' }).click();
      await other.getByRole('status').filter({ hasText: 'This row is already yours; nothing was changed.' }).waitFor();
      await expect(other.getByText('owner took this on.').count()).resolves.toBe(1);
    } finally {
      await context.close();
    }
  });

  it('says the action as words, not a button, where the desk has nobody to write to', async () => {
    // A failed row the desk may not do itself: its press would draft, and nobody can be written to.
    const bare = await makeWork(store.db, desk.id, {
      title: 'Renew the hygiene certificate',
      class: 'money',
      last_error: 'Portal rejected the upload',
    });
    const reachable = await makeWork(store.db, desk.id, {
      title: 'Ask about the upload',
      class: 'money',
      last_error: 'Portal rejected the upload',
      contact_email: 'help@portal.test',
    });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${bare.id}`);
      const needs = page.getByRole('region', { name: 'What it needs' });
      await needs
        .getByText('Needs a look — nobody is named to write to, so no message can be prepared here.', { exact: false })
        .waitFor();
      await expect(page.getByRole('button', { name: 'Needs a look' }).count()).resolves.toBe(0);
      await expect(needs.getByRole('link', { name: 'Give the row a contact' }).getAttribute('href')).resolves.toBe(
        `/work/${bare.id}/edit`,
      );
      await expectAccessible(page);
      await page.goto(`${server.base}/work/${reachable.id}`);
      await page.getByRole('button', { name: 'Needs a look' }).click();
      await page.getByRole('status').filter({ hasText: 'The desk prepared a message to help@portal.test' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('says which press above finishes a row whose prepared message the desk may send itself', async () => {
    const granted = await makeDesk(store.db, { name: 'Granted Bakery', grants: ['reach_out'] });
    const { id } = await makeWork(store.db, granted.desk.id, {
      title: 'Ask for the oats price',
      class: 'reach_out',
      contact_email: 'mill@oats.test',
    });
    await makeDraft(store.db, granted.desk.id, id, { subject: 'Oats', body: 'Hello', to: 'mill@oats.test' });
    const { context, page } = await signIn(browser, server, granted.desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      const press = page.getByRole('button', { name: 'Run it now' });
      await press.waitFor();
      await expect(page.getByRole('button', { name: 'Approve and send' }).count()).resolves.toBe(0);
      // The permission is said by its title, as the Permissions page says it.
      await expect(page.locator('dl.fields dt:text-is("Permission") + dd').textContent()).resolves.toBe(
        'Reach out: the desk may do it',
      );
      await expect(page.locator('#complete-instead').textContent()).resolves.toBe(
        'A message is prepared, so this row is finished by "Run it now" above, which sends it, or without sending it by closing the row.',
      );
    } finally {
      await context.close();
    }
  });

  it("answers a form's own address, opened as a page, and a row that is not there with the screen's Not found", async () => {
    const { id } = await makeWork(store.db, desk.id, { title: 'Wash the windows' });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      const formAddress = await page.goto(`${server.base}/work/${id}/snooze`);
      expect(formAddress!.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
      await page.getByText(`There is no page at /work/${id}/snooze.`).waitFor();
      await expectAccessible(page);
      await shots(page, 'not-found');
      await page.getByRole('link', { name: 'Back to the desk' }).click();
      await page.waitForURL(`${server.base}/`);

      const missing = await page.goto(`${server.base}/work/99999`);
      expect(missing!.status()).toBe(404);
      await page.getByText('No row 99999 on this desk.').waitFor();
      // The API's own paths keep the envelope.
      const api = await page.request.get(`${server.base}/api/v1/nothing-here`);
      expect(api.status()).toBe(404);
      expect((await api.json()).error.code).toBe('not_found');
    } finally {
      await context.close();
    }
  });

  it('keeps what was typed in the form that was refused, and only there, though two forms have a field called body', async () => {
    const lease = await addArrangement(store.db, desk.id, { name: 'Mill lease' });
    const { id } = await makeWork(store.db, desk.id, {
      title: 'Confirm the oats delivery',
      class: 'commit',
      contact_email: 'mill@oats.test',
      arrangement_id: lease.id,
    });
    const draft = 'Hello,\n\nIs Tuesday fine?';
    await makeDraft(store.db, desk.id, id, { subject: 'Oats', body: draft, to: 'mill@oats.test' });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      await page.goto(`${server.base}/work/${id}`);
      const message = page.getByLabel('Message', { exact: true });
      const note = page.getByLabel('Note on Mill lease');
      await note.fill('   ');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByText('Write something in the note before adding it.').waitFor();
      await expect(message.inputValue()).resolves.toBe(draft);

      await page.getByLabel('Subject').fill('');
      await message.fill('Hello,\n\nIs Wednesday fine?');
      await page.getByRole('button', { name: 'Approve and send' }).click();
      await expect(page.getByLabel('Subject').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(message.inputValue()).resolves.toBe('Hello,\n\nIs Wednesday fine?');
      await expect(note.inputValue()).resolves.toBe('');
      await shots(page, 'row-approve-refused');
    } finally {
      await context.close();
    }
  });
  it("refuses the owner's note past 4,000 characters beside its field, keeping what was typed and writing nothing", async () => {
    const lease = await addArrangement(store.db, desk.id, { name: 'Van lease' });
    const { id } = await makeWork(store.db, desk.id, { title: 'Return the van keys', arrangement_id: lease.id });
    const long = `${'n'.repeat(4_000)}!`;
    const { context, page } = await signIn(browser, server, desk.id, { width: 390 });
    try {
      await page.goto(`${server.base}/work/${id}`);
      for (const [label, button] of [
        ['Note on Van lease', 'Add note'],
        ['Note on finishing the row (optional)', 'Mark done'],
      ] as const) {
        const field = page.getByLabel(label);
        await field.fill(long);
        await field.press('Tab');
        const pressed = page.getByRole('button', { name: button });
        await expect(
          pressed.evaluate((e) => e === document.activeElement),
          button,
        ).resolves.toBe(true);
        await page.keyboard.press('Enter');
        await page.getByText('A note is at most 4,000 characters; this one is longer.').waitFor();
        const refused = page.getByLabel(label);
        await expect(refused.getAttribute('aria-invalid'), label).resolves.toBe('true');
        const said = await refused.getAttribute('aria-describedby');
        expect(await page.locator(`[id="${said?.split(' ').at(-1)}"]`).textContent(), label).toContain('at most 4,000');
        await expect(
          refused.evaluate((e) => e === document.activeElement),
          label,
        ).resolves.toBe(true);
        await expect(refused.inputValue(), label).resolves.toBe(long);
        await expectAccessible(page);
      }
      await shots(page, 'row-note-too-long');
    } finally {
      await context.close();
    }
    const notes = await store.db.selectFrom('activity').select('id').where('arrangement_id', '=', lease.id).execute();
    expect(notes).toEqual([]);
    expect(await findWork(store.db, desk.id, id)).toMatchObject({ status: 'open', detail: null });
  });

  it('writes no note when the row the page is drawn for is not on the desk, and says it is not found', async () => {
    const lease = await addArrangement(store.db, desk.id, { name: 'Bakehouse lease' });
    const { desk: other } = await makeDesk(store.db, { name: 'Other Bakery' });
    const theirs = await makeWork(store.db, other.id, { title: 'Not this desk' });
    const owner = await ownerSession(server, store.db, desk.id);
    for (const work of [String(theirs.id), '99999']) {
      const res = await owner.post(`/arrangements/${lease.id}/notes`, { work, body: 'Rent goes up in March.' });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain(`No row ${work} on this desk.`);
    }
    const notes = await store.db.selectFrom('activity').select('id').where('arrangement_id', '=', lease.id).execute();
    expect(notes).toEqual([]);
  });
});
