import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { addDays } from '../../src/domain/dates.ts';
import { ownNext } from '../../src/domain/work/own-next.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// The row page's sentence on what the desk will do by itself: a date only where it would act.

describe("a row's own next step, for a row due beyond the desk's reach", () => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    const { desk } = await makeDesk(store.db, { grants: ['file'], timezone: 'UTC' });
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  const farRow = (cls: string) =>
    makeWork(store.db, ctx.desk.id, {
      title: `Far ${cls}`,
      class: cls,
      contact_email: 'clerk@council.test',
      due_date: addDays(ctx.today(), 40),
    });

  it('names the day it comes within reach when its class is granted', async () => {
    const row = await farRow('file');
    const from = addDays(ctx.today(), 40 - ctx.desk.act_within_days);
    expect(await ownNext(ctx, row.id)).toBe(`The desk acts on this on its own from ${from}.`);
  });

  it('promises no day when its class is not granted, and says why instead', async () => {
    const row = await farRow('commit');
    expect(await ownNext(ctx, row.id)).toMatch(/^The desk will not act on this on its own: /);
  });

  it('says the desk is paused when it would act from that day but is paused', async () => {
    const row = await farRow('file');
    await store.db.updateTable('desks').set({ paused: 1 }).where('id', '=', ctx.desk.id).execute();
    try {
      expect(await ownNext(ctx, row.id)).toMatch(
        /^The desk would act on this on its own from \d{4}-\d{2}-\d{2}, but it is paused\.$/,
      );
    } finally {
      await store.db.updateTable('desks').set({ paused: 0 }).where('id', '=', ctx.desk.id).execute();
    }
  });
});

describe("a row's own next step, for a row the desk has just sent on and now waits", () => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    const { desk } = await makeDesk(store.db, { grants: ['reach_out', 'chase'], timezone: 'UTC' });
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('names the day the chase comes due, not the act of an hour ago', async () => {
    const hourAgo = new Date(ctx.clock.now().getTime() - 3600_000).toISOString();
    const row = await makeWork(store.db, ctx.desk.id, {
      title: 'Out with Jo',
      class: 'reach_out',
      status: 'waiting',
      contact_name: 'Jo',
      contact_email: 'jo@acme.test',
      waiting_on: 'Jo',
      waiting_since: hourAgo,
      chase_after_days: 7,
      due_date: addDays(ctx.today(), 2),
    });
    await store.db.updateTable('work').set({ desk_acted_at: hourAgo }).where('id', '=', row.id).execute();
    const from = addDays(ctx.today(), 7);
    expect(await ownNext(ctx, row.id)).toBe(`The desk acts on this on its own from ${from}.`);
  });
});

describe("a row's own next step, once the desk has done its acts for the day", () => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    const { desk } = await makeDesk(store.db, { grants: ['reach_out'], timezone: 'America/Los_Angeles' });
    await store.db.updateTable('desks').set({ hours: 'always', daily_cap: 1 }).where('id', '=', desk.id).execute();
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('says the cap holds it to tomorrow rather than promising the next pass', async () => {
    const row = await makeWork(store.db, ctx.desk.id, {
      title: 'Ask for the quote',
      class: 'reach_out',
      contact_email: 'quotes@supplier.test',
      due_date: ctx.today(),
    });
    expect(await ownNext(ctx, row.id)).toBe('The desk will do this on its own on its next pass.');
    const acted = await makeWork(store.db, ctx.desk.id, { title: 'Acted on today', status: 'waiting' });
    await store.db.updateTable('work').set({ desk_acted_at: ctx.now() }).where('id', '=', acted.id).execute();
    expect(await ownNext(ctx, row.id)).toBe(
      `The desk has done its 1 act for today; it will do this on its own from ${addDays(ctx.today(), 1)}.`,
    );
  });
});
