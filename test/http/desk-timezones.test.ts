import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBusinessText } from '../../src/domain/business/import.ts';
import { addDays, dateIn, daysBetween } from '../../src/domain/dates.ts';
import { runWatchPass } from '../../src/app/watches/pass.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { addUnit, addWatch } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// The earliest and latest timezones on purpose: at 10:30 UTC a desk in Pacific/Kiritimati
// (UTC+14) is already half an hour into the next day, while one in Pacific/Pago_Pago (UTC-11)
// is still in the day before. Every date rule follows each desk's own date.
const NOW = '2026-11-22T10:30:00.000Z';
const EARLY = 'Pacific/Kiritimati';
const LATE = 'Pacific/Pago_Pago';

describe.each(DIALECTS)('each desk reads the date in its own timezone ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  const ahead = dateIn(EARLY, new Date(NOW));
  const behind = dateIn(LATE, new Date(NOW));

  beforeAll(async () => {
    store = await open();
    h = await harness(store, { now: NOW });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('the two desks see different todays at the same instant', () => {
    expect(daysBetween(behind, ahead)).toBe(2);
  });

  it("days_to_due and overdue count from the desk's today", async () => {
    for (const [timezone, today] of [
      [EARLY, ahead],
      [LATE, behind],
    ] as const) {
      const d = await makeDesk(store.db, { timezone });
      const row = await makeWork(store.db, d.desk.id, { due_date: behind });
      const work = (await h.call('GET', `/api/v1/work/${row.id}`, { key: d.key })).json().data.work;
      expect(work.days_to_due).toBe(daysBetween(today, behind));
      expect(work.overdue).toBe(behind < today);
    }
  });

  it("a chase's draft dates the wait on the desk's own calendar, as days_waiting counts it", async () => {
    // 23 hours before the instant: the 21st in UTC, already the 22nd in Kiritimati.
    const since = new Date(new Date(NOW).getTime() - 23 * 60 * 60_000).toISOString();
    expect(dateIn('UTC', new Date(since))).not.toBe(dateIn(EARLY, new Date(since)));
    const waited = daysBetween(dateIn(EARLY, new Date(since)), ahead);
    const d = await makeDesk(store.db, { timezone: EARLY });
    const row = await makeWork(store.db, d.desk.id, {
      class: 'chase',
      contact_name: 'Sam Oven',
      contact_email: 'sam@ovens.test',
      waiting_on: 'Sam Oven',
      waiting_since: since,
      chase_after_days: 1,
    });
    const work = (await h.call('GET', `/api/v1/work/${row.id}`, { key: d.key })).json().data.work;
    expect(work.days_waiting).toBe(waited);
    const draft = (await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: d.key })).json().data;
    expect(draft.body).toContain(`We have been waiting on an answer since ${dateIn(EARLY, new Date(since))}.`);
  });

  it("closed_today counts from the desk's midnight", async () => {
    // An hour before the instant: already "today" in Pago Pago, still "yesterday" in Kiritimati.
    const closedAt = new Date(new Date(NOW).getTime() - 60 * 60_000).toISOString();
    const counts: Record<string, number> = {};
    for (const timezone of [EARLY, LATE]) {
      const d = await makeDesk(store.db, { timezone });
      await makeWork(store.db, d.desk.id, { status: 'done', closed_at: closedAt });
      counts[timezone] = (await h.call('GET', '/api/v1/me', { key: d.key })).json().data.work.closed_today;
    }
    expect(dateIn(EARLY, new Date(closedAt))).not.toBe(ahead);
    expect(dateIn(LATE, new Date(closedAt))).toBe(behind);
    expect(counts).toEqual({ [EARLY]: 0, [LATE]: 1 });
  });

  it("a snooze of an undated row counts its days from the desk's today", async () => {
    for (const [timezone, today] of [
      [EARLY, ahead],
      [LATE, behind],
    ] as const) {
      const d = await makeDesk(store.db, { timezone });
      const row = await makeWork(store.db, d.desk.id, {});
      const res = await h.call('POST', `/api/v1/work/${row.id}/snooze`, { key: d.key, body: { days: 2 } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.due_date).toBe(addDays(today, 2));
    }
  });

  it("a watch opens its row when the desk's own today reaches the date less the lead", async () => {
    const created: Record<string, number> = {};
    for (const timezone of [EARLY, LATE]) {
      const d = await makeDesk(store.db, { timezone });
      await addUnit(store.db, d.desk.id, { fields: { lease_end: addDays(ahead, 30) } });
      await addWatch(store.db, d.desk.id, { lead_days: 30 });
      created[timezone] = (await runWatchPass(h.deps, { desk: d.desk.id })).created.length;
    }
    expect(created).toEqual({ [EARLY]: 1, [LATE]: 0 });
  });

  it("relative dates in a business file are fixed against the desk's today", async () => {
    for (const [timezone, today] of [
      [EARLY, ahead],
      [LATE, behind],
    ] as const) {
      const slug = `tz-${timezone.split('/')[1]!.toLowerCase().replace(/_/g, '-')}`;
      const text = [
        `desk: { name: Time Test, slug: ${slug}, timezone: ${timezone}, currency: GBP }`,
        'work:',
        '  - { ref: soon, title: Renew the licence, due: "+3d", waiting_on: Council, waiting_since: "-2d" }',
        '  - { ref: now, title: Pay the rent, due: today }',
      ].join('\n');
      const r = await importBusinessText(store.db, text, { now: new Date(NOW) });
      expect(await findWork(store.db, r.desk.id, r.refs.soon!)).toMatchObject({
        due_date: addDays(today, 3),
        waiting_since: addDays(today, -2),
      });
      expect(await findWork(store.db, r.desk.id, r.refs.now!)).toMatchObject({ due_date: today });
    }
  });
});
