import { describe, expect, it } from 'vitest';
import { ownerDesk } from '../helpers/owner-desk.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { addDays, dateIn, minuteOfInstant } from '../../src/domain/dates.ts';
import { ownNext } from '../../src/domain/work/own-next.ts';
import { makeDraft, makeWork } from '../helpers/factories.ts';
import { addConnection } from '../helpers/business.ts';
import { noteSendFault } from '../../src/store/repositories/connections.ts';

// The row page's sentence on what the desk will do by itself: a date only where it would act.

/** The start of the minute after `ms`, as an ISO instant. */
const DAY = 86_400_000;
const minuteAfter = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000 + 60_000).toISOString();

describe("a row's own next step, for a row due beyond the desk's reach", () => {
  const t = ownerDesk({ grants: ['file'], timezone: 'UTC' }, {}, { mailbox: true });

  const farRow = (cls: string) =>
    makeWork(t.store.db, t.ctx.desk.id, {
      title: `Far ${cls}`,
      class: cls,
      contact_email: 'clerk@council.test',
      due_date: addDays(t.ctx.today(), 40),
    });

  it('names the day it comes within reach when its class is granted', async () => {
    const row = await farRow('file');
    const from = addDays(t.ctx.today(), 40 - t.ctx.desk.act_within_days);
    expect(await ownNext(t.ctx, row.id)).toBe(`The desk acts on this on its own from ${from}.`);
  });

  it('promises no day when its class is not granted, and says why instead', async () => {
    const row = await farRow('commit');
    expect(await ownNext(t.ctx, row.id)).toMatch(/^The desk will not act on this on its own: /);
  });

  it('says the desk is paused when it would act from that day but is paused', async () => {
    const row = await farRow('file');
    await t.store.db.updateTable('desks').set({ paused: 1 }).where('id', '=', t.ctx.desk.id).execute();
    try {
      expect(await ownNext(t.ctx, row.id)).toMatch(
        /^The desk would act on this on its own from \d{4}-\d{2}-\d{2}, but it is paused\.$/,
      );
    } finally {
      await t.store.db.updateTable('desks').set({ paused: 0 }).where('id', '=', t.ctx.desk.id).execute();
    }
  });
});

describe("a row's own next step, on a desk whose daily cap is 0", () => {
  // Paused as well, a cap of 0 is still what is said: it holds whatever else changes.
  const t = ownerDesk({ grants: ['reach_out'], timezone: 'UTC' }, { hours: 'always', daily_cap: 0 }, { mailbox: true });

  it('says the cap keeps the desk from acting, whether or not it is paused', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Ask about the sign',
      class: 'reach_out',
      contact_email: 'sign@council.test',
      due_date: addDays(t.ctx.today(), 1),
    });
    const capped = 'The desk will not do this on its own: its daily cap is 0.';
    expect(await ownNext(t.ctx, row.id)).toBe(capped);
    await t.store.db.updateTable('desks').set({ paused: 1 }).where('id', '=', t.ctx.desk.id).execute();
    expect(await ownNext(t.ctx, row.id)).toBe(capped);
  });
});

describe("a row's own next step, for a row the desk has just sent on and now waits", () => {
  const t = ownerDesk({ grants: ['reach_out', 'chase'], timezone: 'UTC' }, { hours: 'always' }, { mailbox: true });

  it('names the day the chase comes due, not the act of an hour ago', async () => {
    const hourAgo = new Date(t.ctx.clock.now().getTime() - 3600_000).toISOString();
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Out with Jo',
      class: 'reach_out',
      status: 'waiting',
      contact_name: 'Jo',
      contact_email: 'jo@acme.test',
      waiting_on: 'Jo',
      waiting_since: hourAgo,
      chase_after_days: 7,
      due_date: addDays(t.ctx.today(), 2),
    });
    await t.store.db.updateTable('work').set({ desk_acted_at: hourAgo }).where('id', '=', row.id).execute();
    const from = addDays(t.ctx.today(), 7);
    expect(await ownNext(t.ctx, row.id)).toBe(`The desk acts on this on its own from ${from}.`);
  });
});

describe("a row's own next step, once the desk has done its acts for the day", () => {
  const t = ownerDesk(
    { grants: ['reach_out'], timezone: 'America/Los_Angeles' },
    { hours: 'always', daily_cap: 1 },
    { mailbox: true },
  );

  it('says the cap holds it to tomorrow rather than promising the next pass', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Ask for the quote',
      class: 'reach_out',
      contact_email: 'quotes@supplier.test',
      due_date: t.ctx.today(),
    });
    expect(await ownNext(t.ctx, row.id)).toBe('The desk will do this on its own on its next pass.');
    const acted = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Acted on today', status: 'waiting' });
    await t.store.db.updateTable('work').set({ desk_acted_at: t.ctx.now() }).where('id', '=', acted.id).execute();
    expect(await ownNext(t.ctx, row.id)).toBe(
      `The desk has done its 1 act for today; it will do this on its own from ${addDays(t.ctx.today(), 1)}.`,
    );
  });
});

describe("a row's own next step, on a desk that works weekdays", () => {
  const t = ownerDesk(
    { grants: ['reach_out'], timezone: 'UTC' },
    { hours: 'mon-fri 09:00-17:00', daily_cap: 1 },
    { mailbox: true },
  );

  it('names the Monday after a Friday whose acts are done, not the Saturday', async () => {
    const start = t.h.clock.now();
    // The Friday on or after the pinned day, at 10:00 in the desk's zone.
    const weekday = new Date(`${dateIn('UTC', start)}T00:00:00Z`).getUTCDay();
    const friday = addDays(dateIn('UTC', start), (5 - weekday + 7) % 7);
    t.h.clock.set(`${friday}T10:00:00Z`);
    try {
      const row = await makeWork(t.store.db, t.ctx.desk.id, {
        title: 'Ask for the quote',
        class: 'reach_out',
        contact_email: 'quotes@supplier.test',
        due_date: friday,
      });
      const acted = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Acted on today', status: 'waiting' });
      await t.store.db.updateTable('work').set({ desk_acted_at: t.ctx.now() }).where('id', '=', acted.id).execute();
      expect(await ownNext(t.ctx, row.id)).toBe(
        `The desk has done its 1 act for today; it will do this on its own from ${addDays(friday, 3)}.`,
      );
    } finally {
      t.h.clock.set(start);
    }
  });
});

describe("a row's own next step, while the desk's last send could not reach its mail server", () => {
  const t = ownerDesk({ grants: ['reach_out'], timezone: 'UTC' }, { hours: 'always' });

  it('says it goes once the mail server answers, not on the next pass, and goes back once it has', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Ask for the quote',
      class: 'reach_out',
      contact_email: 'quotes@supplier.test',
      due_date: t.ctx.today(),
    });
    const box = await addConnection(t.store.db, t.ctx.desk.id);
    const fault = (f: { reason: string; at: string } | null) => noteSendFault(t.store.db, t.ctx.desk.id, box.id, f);
    await fault({ reason: 'connect ECONNREFUSED 127.0.0.1:2525', at: t.ctx.now() });
    expect(await ownNext(t.ctx, row.id)).toBe(
      'The desk will do this on its own once its mail server answers; its last send could not reach it.',
    );
    await fault(null);
    expect(await ownNext(t.ctx, row.id)).toBe('The desk will do this on its own on its next pass.');
  });

  it('names the minute a message to the same address, about another row, is a day old', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Ask for the price list',
      class: 'reach_out',
      contact_email: 'Sales@Supplier.test',
      due_date: t.ctx.today(),
    });
    const other = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Ask for the catalogue' });
    const twoHoursAgo = new Date(t.ctx.clock.now().getTime() - 2 * 3600_000);
    await makeDraft(t.store.db, t.ctx.desk.id, other.id, {
      to: 'sales@supplier.test',
      status: 'sent',
      sentAt: twoHoursAgo.toISOString(),
    });
    const free = minuteOfInstant('UTC', minuteAfter(twoHoursAgo.getTime() + 24 * 3600_000));
    expect(await ownNext(t.ctx, row.id)).toBe(
      `A message went to sales@supplier.test in the last 24 hours, and the desk writes to an address once a day; it will do this on its own from ${free}.`,
    );
  });
});

describe("a row's own next step, for a row the desk acted on less than a day ago", () => {
  const zone = 'Asia/Kathmandu';
  const t = ownerDesk({ grants: ['reach_out', 'chase'], timezone: zone }, { hours: 'always' }, { mailbox: true });
  const hoursAgo = (h: number) => new Date(t.ctx.clock.now().getTime() - h * 3600_000).toISOString();
  // The minute after the day is up: until that instant, included, the pass holds the row.
  const anHourOn = () => minuteOfInstant(zone, minuteAfter(t.ctx.clock.now().getTime() + 3600_000));

  it('names the moment the day since its last act is up, for a row an act left as it was', async () => {
    // A run that stopped (no browser, out of time) leaves the row open, acted on 23 hours ago.
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'File the return',
      class: 'reach_out',
      contact_email: 'clerk@council.test',
      due_date: t.ctx.today(),
    });
    await t.store.db
      .updateTable('work')
      .set({ desk_acted_at: hoursAgo(23) })
      .where('id', '=', row.id)
      .execute();
    expect(await ownNext(t.ctx, row.id)).toBe(`The desk acts on this on its own from ${anHourOn()}.`);
  });

  it('names it for a daily chase whose day has come, rather than saying it will not chase', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Out with Jo every day',
      class: 'reach_out',
      status: 'waiting',
      contact_name: 'Jo',
      contact_email: 'jo@acme.test',
      waiting_on: 'Jo',
      waiting_since: hoursAgo(23),
      chase_after_days: 1,
    });
    await t.store.db
      .updateTable('work')
      .set({ desk_acted_at: hoursAgo(23) })
      .where('id', '=', row.id)
      .execute();
    // 23 hours ago was the desk's yesterday, so the chase is due by the date.
    expect(addDays(dateIn(zone, new Date(hoursAgo(23))), 1)).toBe(t.ctx.today());
    expect(await ownNext(t.ctx, row.id)).toBe(`The desk acts on this on its own from ${anHourOn()}.`);
  });
});

describe("a row's own next step, in the last days a row can be due", () => {
  const t = ownerDesk(
    { grants: ['reach_out', 'chase'], timezone: 'Pacific/Kiritimati' },
    { hours: 'always', daily_cap: 1 },
    { mailbox: true },
  );
  const lastDays = (at: string) => {
    t.h.clock.set(new Date(at));
    return { [Symbol.dispose]: () => t.h.clock.set(new Date(TEST_NOW)) };
  };
  const waitingSince = (waited: number) =>
    makeWork(t.store.db, t.ctx.desk.id, {
      title: `Out with Bob ${waited} days`,
      class: 'chase',
      status: 'waiting',
      contact_name: 'Bob',
      contact_email: 'bob@supplier.test',
      waiting_on: 'Bob',
      waiting_since: new Date(t.ctx.clock.now().getTime() - waited * DAY).toISOString(),
      chase_after_days: 7,
      due_date: '9999-12-31',
    });

  it('acts on a row due on 9999-12-31, within reach, on its next pass', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Ask for the last quote',
      class: 'reach_out',
      contact_email: 'quotes@supplier.test',
      due_date: '9999-12-31',
    });
    t.h.clock.set(new Date('9999-12-25T10:00:00.000Z'));
    try {
      expect(await ownNext(t.ctx, row.id)).toBe('The desk will do this on its own on its next pass.');
    } finally {
      t.h.clock.set(new Date(TEST_NOW));
    }
  });

  it('names the last day for a chase that comes due on it, and no day for one that would come after it', async () => {
    using _ = lastDays('9999-12-27T12:00:00.000Z');
    const today = t.ctx.today();
    // Three days left in the desk's own zone: a wait of 7 days begun 4 days ago comes due on the last.
    expect(addDays(today, 3)).toBe('9999-12-31');
    expect(await ownNext(t.ctx, (await waitingSince(4)).id)).toBe('The desk acts on this on its own from 9999-12-31.');
    expect(await ownNext(t.ctx, (await waitingSince(1)).id)).toMatch(/^The desk will not act on this on its own/);
  });

  it('names no tomorrow once the acts of the last day are done', async () => {
    using _ = lastDays('9999-12-30T12:00:00.000Z');
    expect(t.ctx.today()).toBe('9999-12-31');
    const row = await makeWork(t.store.db, t.ctx.desk.id, {
      title: 'Ask for the very last quote',
      class: 'reach_out',
      contact_email: 'last@supplier.test',
      due_date: '9999-12-31',
    });
    const acted = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Acted on today', status: 'waiting' });
    await t.store.db.updateTable('work').set({ desk_acted_at: t.ctx.now() }).where('id', '=', acted.id).execute();
    expect(await ownNext(t.ctx, row.id)).toBe('The desk has done its 1 act for today.');
  });
});
