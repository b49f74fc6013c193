import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { addDays } from '../../src/domain/dates.ts';
import { COSTS_SHOWN, UNITS_SHOWN } from '../../src/domain/desks/block-contents.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { addArrangement, addDomain, addSection, addUnit, addWatch } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
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

// P-screen-blocks-2: the desk page's units, money and dates blocks show what they are about,
// read from the desk's units, domains, arrangements and watches.

if (!CHROMIUM_PRESENT)
  console.log(`Chromium not installed at ${CHROMIUM}: skipping the screen tests (set DESK_CHROMIUM_PATH).`);

const TODAY = TEST_NOW.slice(0, 10);
const on = (days: number) => addDays(TODAY, days);

describe.runIf(CHROMIUM_PRESENT).each(DIALECTS)('the blocks of the desk page ($name)', ({ open }) => {
  let store: TestStore;
  let server: ScreenServer;
  let browser: Browser;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    server = await startScreenServer(store);
    browser = await launch();
    const { desk } = await makeDesk(store.db, { name: 'Quay Bakery', currency: 'GBP', timezone: 'Europe/London' });
    deskId = desk.id;
    const fields = [
      { name: 'lease_end', hint: 'Date the lease ends' },
      { name: 'licence_end', hint: '' },
    ];
    await addSection(store.db, deskId, {
      id: 'sites',
      position: 1,
      title: 'Sites',
      kind: 'units',
      unit: 'site',
      fields,
    });
    await addSection(store.db, deskId, { id: 'vans', position: 2, title: 'Vans', kind: 'units', unit: 'van' });
    await addSection(store.db, deskId, { id: 'money', position: 3, title: 'Money owed', kind: 'money' });
    await addSection(store.db, deskId, { id: 'dates', position: 4, title: 'Coming up', kind: 'dates' });
    await addUnit(store.db, deskId, { name: '12 High Street', fields: { lease_end: on(40), licence_end: null } });
    await addUnit(store.db, deskId, { name: 'Market stall', fields: { lease_end: on(75) } });
    await addWatch(store.db, deskId, { field: 'lease_end', label: 'Lease ends', lead_days: 30 });
    await addArrangement(store.db, deskId, {
      name: 'High Street lease',
      renews_on: on(40),
      amount_cents: 125050,
      currency: 'GBP',
    });
    await addArrangement(store.db, deskId, { name: 'Old van hire', status: 'ended', renews_on: on(5) });
    await addDomain(store.db, deskId, {
      name: 'bakery.test',
      status: 'unpaid',
      amount_cents: 1500,
      renewal_on: on(10),
    });
    await addDomain(store.db, deskId, { name: 'old-bakery.test', status: 'collections', amount_cents: 2500 });
    await addDomain(store.db, deskId, { name: 'quay.test', status: 'live', renewal_on: on(200) });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  const block = (page: Page, title: string) =>
    page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });
  const items = async (page: Page, title: string) =>
    (await block(page, title).getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());

  it('lists the units with their columns, what is owed and costs, and the dates coming up', async () => {
    const { context, page } = await signIn(browser, server, deskId);
    try {
      expect(await items(page, 'Sites')).toEqual([
        `12 High Street Date the lease ends: ${on(40)} licence end: not set`,
        `Market stall Date the lease ends: ${on(75)} licence end: not set`,
      ]);
      expect(await items(page, 'Money owed')).toEqual([
        `bakery.test: unpaid, 15.00 GBP, renews ${on(10)}`,
        'old-bakery.test: collections, 25.00 GBP',
        `High Street lease: 1,250.50 GBP, renews ${on(40)}`,
      ]);
      await block(page, 'Money owed').getByText('Owed: 40.00 GBP', { exact: true }).waitFor();
      expect(await items(page, 'Coming up')).toEqual([
        `${on(10)}: bakery.test renews`,
        `${on(40)}: High Street lease renews`,
        `${on(40)}: Lease ends: 12 High Street (in the queue from ${on(10)})`,
        `${on(75)}: Lease ends: Market stall (in the queue from ${on(45)})`,
        `${on(200)}: quay.test renews`,
      ]);
      await expectAccessible(page);
      await screenshots(page, 'desk-blocks');

      // A units block with no units says so and leads to where one is added.
      await block(page, 'Vans').getByText('No van is recorded yet.').waitFor();
      await block(page, 'Vans').getByRole('link', { name: 'Add one under Units' }).click();
      await page.getByRole('heading', { level: 2, name: 'Units', exact: true }).waitFor();
      expect(page.url()).toBe(`${server.base}/arrangements#units-title`);
    } finally {
      await context.close();
    }
  });

  it('counts the dates past the first eight, the units and the costs past the first twenty, and moves on with the clock', async () => {
    for (let n = 1; n <= 9; n++) await addDomain(store.db, deskId, { name: `more-${n}.test`, renewal_on: on(300 + n) });
    for (let n = 1; n <= UNITS_SHOWN + 2; n++) await addUnit(store.db, deskId, { type: 'van', name: `Van ${n}` });
    // With the lease already there, two arrangements with an amount more than the block lists.
    for (let n = 1; n <= COSTS_SHOWN + 1; n++)
      await addArrangement(store.db, deskId, { name: `Hire ${n}`, amount_cents: 1000 + n, currency: 'GBP' });
    const { context, page } = await signIn(browser, server, deskId);
    try {
      expect(await items(page, 'Vans')).toEqual(Array.from({ length: UNITS_SHOWN }, (_, n) => `Van ${n + 1}`));
      await block(page, 'Vans').getByText('and 2 vans more, all under Units.', { exact: true }).waitFor();
      await block(page, 'Money owed')
        .getByText('and 2 arrangements more, all under Arrangements.', { exact: true })
        .waitFor();
      const first = await items(page, 'Coming up');
      expect(first).toHaveLength(8);
      expect(first[0]).toBe(`${on(10)}: bakery.test renews`);
      await block(page, 'Coming up').getByText('and 6 dates after these.', { exact: true }).waitFor();

      // Eleven days on, bakery.test's renewal has passed and is no longer coming up.
      server.clock.set(new Date(Date.parse(TEST_NOW) + 11 * 86_400_000));
      try {
        await page.reload();
        const later = await items(page, 'Coming up');
        expect(later[0]).toBe(`${on(40)}: High Street lease renews`);
        expect(later.some((t) => t.includes('bakery.test renews'))).toBe(false);
      } finally {
        server.clock.set(new Date(TEST_NOW));
      }
    } finally {
      await context.close();
    }
  });
  /** Where each of `parts` is drawn in the element: the left edge of each, and on how many lines. */
  const drawn = (el: Locator, parts: string[]) =>
    el.evaluate((root, parts) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const at: Record<string, { left: number; lines: number }> = {};
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const part of parts) {
          const i = n.textContent!.indexOf(part);
          if (i < 0) continue;
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + part.length);
          const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
          at[part] = { left: range.getBoundingClientRect().left, lines: tops.size };
        }
      }
      return parts.map((p) => at[p] ?? { left: Number.NaN, lines: 0 });
    }, parts);
  const inOrder = (lefts: number[]) =>
    lefts.every(Number.isFinite) && lefts.every((x, i) => i === 0 || x > lefts[i - 1]!);

  it("keeps the owner's right-to-left names from reordering what is around them, and long names inside the table", async () => {
    const long = 'Donaudampfschifffahrtsgesellschaftskapitaensmuetzenlieferungsvertrag-Rahmenvereinbarung';
    // The desk's own name, shown in every page's header, is one long word too.
    const { desk } = await makeDesk(store.db, { name: `Souk ${long}`, currency: 'GBP', timezone: 'Europe/London' });
    await addSection(store.db, desk.id, { id: 'money', position: 1, title: 'Money', kind: 'money' });
    const arabic = '\u0625\u064A\u062C\u0627\u0631 \u0627\u0644\u0645\u062D\u0644'; // "the shop's rent"
    const sam = '\u0633\u0627\u0645';
    await addArrangement(store.db, desk.id, { name: arabic, renews_on: on(80), amount_cents: 125050, currency: 'GBP' });
    await addArrangement(store.db, desk.id, { name: long, renews_on: on(90), amount_cents: 320000, currency: 'GBP' });
    await addUnit(store.db, desk.id, { name: long, type: 'site', fields: { lease_end: on(100) } });
    await addWatch(store.db, desk.id, { field: 'lease_end', label: long, lead_days: 30 });
    await addWatch(store.db, desk.id, {
      field: 'kuehlhauswartungsvertragsverlaengerungsfristablaufdatum',
      label: 'Cold room',
    });
    const waiting = await makeWork(store.db, desk.id, {
      title: 'Quote for the oven',
      status: 'waiting',
      class: 'chase',
      waiting_on: sam,
      waiting_since: `${on(-12)}T09:00:00.000Z`,
    });
    const { context, page } = await signIn(browser, server, desk.id);
    try {
      // The name first, then its amount, then its date, left to right.
      const item = block(page, 'Money').getByRole('listitem').filter({ hasText: arabic });
      const money = await drawn(item, [arabic, '1,250.50 GBP', on(80)]);
      expect(inOrder(money.map((d) => d.left))).toBe(true);

      // A sentence of the desk's that opens with the name reads on after it, left to right.
      await page.goto(`${server.base}/work/${waiting.id}`);
      const said = page.getByText(`${sam} for 12 days`, { exact: true });
      const sentence = await drawn(said, [sam, 'for 12 days']);
      expect(inOrder(sentence.map((d) => d.left))).toBe(true);

      // A name that is one long word breaks, so every column of the table stays on the screen,
      // and the dates and the names of columns are kept whole.
      await page.goto(`${server.base}/arrangements`);
      const table = page.getByRole('table', { name: 'Arrangements' });
      // 640 px is 1280 at 200% zoom; 320 px the narrowest a page must read at.
      for (const width of [1280, 768, 700, 640, 390, 320]) {
        await page.setViewportSize({ width, height: 900 });
        for (const name of ['Arrangements', 'Units', 'Watches']) {
          const fits = await page
            .getByRole('table', { name })
            .evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth);
          expect(fits, `${name} at ${width}px`).toBe(true);
        }
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(wide, `the page at ${width}px`).toBeLessThanOrEqual(width);
        const amount = await table.getByRole('cell', { name: '3,200.00 GBP' }).boundingBox();
        expect(amount!.x + amount!.width, `at ${width}px`).toBeLessThanOrEqual(width);
        if (width === 320) continue;
        const units = await drawn(page.getByRole('table', { name: 'Units' }), [on(100)]);
        const watches = await drawn(page.getByRole('table', { name: 'Watches' }), ['lease_end']);
        expect(
          [...units, ...watches].map((d) => d.lines),
          `at ${width}px`,
        ).toEqual([1, 1]);
      }
      await expectAccessible(page);
      await screenshots(page, 'arrangements-long-names');
    } finally {
      await context.close();
    }
  });
});
