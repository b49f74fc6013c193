import { describe, expect, it } from 'vitest';
import { ownerDesk } from '../helpers/owner-desk.ts';
import { addDays } from '../../src/domain/dates.ts';
import { ownNext } from '../../src/domain/work/own-next.ts';
import { makeWork } from '../helpers/factories.ts';

// The row page's sentence on what the desk will do by itself: a date only where it would act.

describe("a row's own next step, for a row due beyond the desk's reach", () => {
  const t = ownerDesk({ grants: ['file'], timezone: 'UTC' });

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

describe("a row's own next step, for a row the desk has just sent on and now waits", () => {
  const t = ownerDesk({ grants: ['reach_out', 'chase'], timezone: 'UTC' });

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
  const t = ownerDesk({ grants: ['reach_out'], timezone: 'America/Los_Angeles' }, { hours: 'always', daily_cap: 1 });

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
