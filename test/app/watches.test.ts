import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import type { Deps } from '../../src/domain/context.ts';
import { addDays } from '../../src/domain/dates.ts';
import { dueOccurrence, everyDays, watchedDate } from '../../src/domain/watches/schedule.ts';
import { runWatchPass, type WatchPassResult } from '../../src/app/watches/pass.ts';
import { upcomingWatches } from '../../src/domain/watches/upcoming.ts';
import { startWatchScheduler, type SchedulerLog } from '../../src/app/watches/scheduler.ts';
import { countOpenWork, moveWork } from '../../src/store/repositories/work.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';
import { deskContext } from '../../src/domain/context.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { removeEntry } from '../../src/domain/desks/remove.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { addArrangement, addUnit, addWatch } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { racePasses } from '../helpers/racers.ts';
import { eventsOf, timelineOf } from '../http/writes-helpers.ts';

const TODAY = '2026-11-22';

describe('watch schedule rules', () => {
  it('reads every as whole days; anything else is one-off', () => {
    expect([everyDays('365'), everyDays(' 30 '), everyDays('7d'), everyDays('14 days')]).toEqual([365, 30, 7, 14]);
    expect([
      everyDays(null),
      everyDays(''),
      everyDays('0'),
      everyDays('yearly'),
      everyDays('-3'),
      everyDays('2.5'),
    ]).toEqual([null, null, null, null, null, null]);
  });

  it('takes a unit field only when it is a real YYYY-MM-DD date', () => {
    expect(watchedDate('{"lease_end":"2027-01-01"}', 'lease_end')).toBe('2027-01-01');
    for (const fields of [
      '{"lease_end":"soon"}',
      '{"lease_end":"2027-02-30"}',
      '{"lease_end":20270101}',
      '{"lease_end":null}',
      '{}',
      'not json',
      '[]',
      '{"lease_end":"+40d"}',
    ]) {
      expect(watchedDate(fields, 'lease_end'), fields).toBeNull();
    }
  });

  it('creates the first date once inside the lead, and the next only after the current is finished', () => {
    const at = (date: string, made: Array<[string, string]> = [], every: number | null = 30) =>
      dueOccurrence({ date, every, leadDays: 60, today: TODAY, made: new Map(made) });
    expect(at(addDays(TODAY, 40))).toBe(addDays(TODAY, 40));
    expect(at(addDays(TODAY, 60))).toBe(addDays(TODAY, 60));
    expect(at(addDays(TODAY, 61))).toBeNull();
    expect(at(addDays(TODAY, -400))).toBe(addDays(TODAY, -400));
    const d = addDays(TODAY, 10);
    expect(at(d, [[d, 'open']])).toBeNull();
    expect(at(d, [[d, 'waiting']])).toBeNull();
    expect(at(d, [[d, 'done']])).toBe(addDays(d, 30));
    expect(
      at(d, [
        [d, 'closed'],
        [addDays(d, 30), 'done'],
      ]),
    ).toBeNull(); // d+60 is 70 days out
    expect(at(d, [[d, 'done']], null)).toBeNull();
  });
});

describe.each(DIALECTS)('watches ($name)', ({ name, open }) => {
  let store: TestStore;
  let clock: FixedClock;
  let deps: Deps;

  beforeAll(async () => {
    store = await open();
    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    clock = new FixedClock(new Date(TEST_NOW));
    deps = { store, clock, config, engine: realEngine(config) };
  });
  afterAll(async () => {
    await store.close();
  });
  beforeEach(() => clock.set(TEST_NOW));

  const rowsOf = (deskId: string) =>
    store.db.selectFrom('work').selectAll().where('desk_id', '=', deskId).orderBy('id').execute();
  const openCount = async (deskId: string) =>
    (await store.db.selectFrom('desks').select('open_count').where('id', '=', deskId).executeTakeFirstOrThrow())
      .open_count;
  const passFor = (desk: { id: string }) => runWatchPass(deps, { desk: desk.id });

  it('a unit 40 days out under a 60-day watch yields one row after two passes, shaped from the watch', async () => {
    const { desk } = await makeDesk(store.db);
    const lease = await addArrangement(store.db, desk.id);
    const unit = await addUnit(store.db, desk.id, {
      name: '12 High Street',
      fields: { lease_end: addDays(TODAY, 40), size: 120 },
      arrangement_id: lease.id,
    });
    const watch = await addWatch(store.db, desk.id, {
      lead_days: 60,
      kind: 'lease_renewal',
      action: 'commit',
      priority: 70,
    });

    const first = await passFor(desk);
    const second = await passFor(desk);
    expect(first.created).toHaveLength(1);
    expect(second.created).toHaveLength(0);
    expect(first.failures).toEqual([]);

    const rows = await rowsOf(desk.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      title: 'Lease renewal: 12 High Street',
      kind: 'lease_renewal',
      class: 'commit',
      priority: 70,
      status: 'open',
      due_date: addDays(TODAY, 40),
      watch_id: watch.id,
      unit_id: unit.id,
      watch_date: addDays(TODAY, 40),
      arrangement_id: lease.id,
      contact_name: 'Jo Lane',
      contact_email: 'jo@acme-estates.test',
      created_at: TEST_NOW,
    });
    expect(first.created[0]).toEqual({
      desk_id: desk.id,
      work_id: rows[0]!.id,
      watch_id: watch.id,
      unit_id: unit.id,
      watch_date: addDays(TODAY, 40),
      title: 'Lease renewal: 12 High Street',
    });
    expect(await openCount(desk.id)).toBe(1);
    expect(await countOpenWork(store.db, desk.id)).toBe(1);

    const events = await eventsOf(store.db, desk.id, 'work_created');
    expect(events).toHaveLength(1);
    expect(events[0]!.message).toBe(
      `Opened "Lease renewal: 12 High Street", due ${addDays(TODAY, 40)}: the Lease renewal watch starts 60 days ahead.`,
    );
    expect(events[0]!.data).toEqual({
      work_id: rows[0]!.id,
      watch_id: watch.id,
      unit_id: unit.id,
      watch_date: addDays(TODAY, 40),
    });
    expect((await timelineOf(store.db, desk.id, rows[0]!.id)).map((t) => t.kind)).toEqual(['created']);
  });

  it('two passes at once in one process still make one row per unit', async () => {
    const { desk } = await makeDesk(store.db);
    for (let i = 0; i < 5; i++)
      await addUnit(store.db, desk.id, { name: `Kiosk ${i}`, fields: { lease_end: addDays(TODAY, i) } });
    await addWatch(store.db, desk.id);
    const [a, b] = await Promise.all([passFor(desk), passFor(desk)]);
    expect([...a.failures, ...b.failures]).toEqual([]);
    expect(a.created.length + b.created.length).toBe(5);
    expect(await rowsOf(desk.id)).toHaveLength(5);
    expect(await eventsOf(store.db, desk.id, 'work_created')).toHaveLength(5);
    expect(await openCount(desk.id)).toBe(5);
  });

  for (const gone of ['unit', 'watch'] as const)
    it(`a ${gone} removed while the pass makes its rows is passed over, and the rest are made and counted`, async () => {
      const { desk } = await makeDesk(store.db);
      const first = await addWatch(store.db, desk.id);
      const second = await addWatch(store.db, desk.id, { kind: 'lease_review', label: 'Lease review' });
      const UNITS = 200;
      const units = [];
      for (let i = 0; i < UNITS; i++)
        units.push(await addUnit(store.db, desk.id, { name: `Kiosk ${i}`, fields: { lease_end: addDays(TODAY, 10) } }));
      const owner = deskContext(deps, desk, { type: 'owner', name: 'owner' });
      const pass = passFor(desk);
      // Once the pass is under way, from another door: the last unit, or the second watch.
      while ((await rowsOf(desk.id)).length < 3) await new Promise((r) => setTimeout(r, 1));
      await removeEntry(owner, gone, gone === 'unit' ? units.at(-1)!.id : second.id);
      const r = await pass;
      expect(r.failures).toEqual([]);
      const made = await rowsOf(desk.id);
      expect(r.created).toHaveLength(made.length);
      // Every row the first watch had to make but the gone unit's; the second watch's all, or none.
      expect(made.filter((w) => w.watch_id === first.id)).toHaveLength(gone === 'unit' ? UNITS - 1 : UNITS);
      if (gone === 'unit') expect(made).toHaveLength(2 * (UNITS - 1));
      expect(await openCount(desk.id)).toBe(made.length);
    });

  it("a unit 70 days out yields nothing until the desk's today reaches the date less the lead", async () => {
    const { desk } = await makeDesk(store.db);
    await addUnit(store.db, desk.id, { fields: { lease_end: addDays(TODAY, 70) } });
    await addWatch(store.db, desk.id, { lead_days: 60 });
    expect((await passFor(desk)).created).toEqual([]);
    clock.set(`${addDays(TODAY, 9)}T10:00:00.000Z`);
    expect((await passFor(desk)).created).toEqual([]);
    clock.set(`${addDays(TODAY, 10)}T10:00:00.000Z`);
    expect((await passFor(desk)).created).toHaveLength(1);
    expect((await rowsOf(desk.id)).map((r) => r.due_date)).toEqual([addDays(TODAY, 70)]);
    expect(await eventsOf(store.db, desk.id, 'work_created')).toHaveLength(1);
  });

  it('skips field values that are not dates, units of other types and units without the field', async () => {
    const { desk } = await makeDesk(store.db);
    for (const lease_end of ['soon', '2027-02-30', 20270101, null, '+40d', '01/01/2027'])
      await addUnit(store.db, desk.id, { name: `Unit ${String(lease_end)}`, fields: { lease_end } });
    await addUnit(store.db, desk.id, { name: 'No field', fields: { other: addDays(TODAY, 5) } });
    await addUnit(store.db, desk.id, { type: 'van', name: 'The van', fields: { lease_end: addDays(TODAY, 5) } });
    await addWatch(store.db, desk.id, { lead_days: 60 });
    const result = await passFor(desk);
    expect(result).toMatchObject({ created: [], failures: [] });
    expect(await rowsOf(desk.id)).toEqual([]);
  });

  it('with every set, the next occurrence comes only once the current one is done or closed, each in its own lead', async () => {
    const { desk } = await makeDesk(store.db);
    const d = addDays(TODAY, 10);
    await addUnit(store.db, desk.id, { name: 'Shop', fields: { inspected_on: d } });
    await addWatch(store.db, desk.id, {
      field: 'inspected_on',
      label: 'Fire inspection',
      lead_days: 60,
      kind: 'inspection',
      action: 'file',
      every: '30',
      priority: 40,
    });

    expect((await passFor(desk)).created.map((c) => c.watch_date)).toEqual([d]);
    expect((await passFor(desk)).created).toEqual([]); // the first is still open
    const [first] = await rowsOf(desk.id);
    expect(await moveWork(store.db, desk.id, first!.id, 'open', 'waiting')).toBe(true);
    expect((await passFor(desk)).created).toEqual([]); // waiting is still open
    expect(await moveWork(store.db, desk.id, first!.id, 'waiting', 'done', { closed_at: TEST_NOW })).toBe(true);

    expect((await passFor(desk)).created.map((c) => c.watch_date)).toEqual([addDays(d, 30)]);
    const second = (await rowsOf(desk.id)).find((r) => r.watch_date === addDays(d, 30))!;
    expect(second).toMatchObject({
      title: 'Fire inspection: Shop',
      due_date: addDays(d, 30),
      class: 'file',
      kind: 'inspection',
      priority: 40,
      status: 'open',
    });
    expect(await moveWork(store.db, desk.id, second.id, 'open', 'closed', { closed_at: TEST_NOW })).toBe(true);

    // d + 60 is 70 days out: outside the lead until ten days pass.
    expect((await passFor(desk)).created).toEqual([]);
    clock.set(`${addDays(TODAY, 10)}T10:00:00.000Z`);
    expect((await passFor(desk)).created.map((c) => c.watch_date)).toEqual([addDays(d, 60)]);
    expect((await rowsOf(desk.id)).map((r) => r.watch_date)).toEqual([d, addDays(d, 30), addDays(d, 60)]);
    expect(await openCount(desk.id)).toBe(1);
  });

  it('a one-off watch makes nothing more once its row is done, and says so', async () => {
    const { desk } = await makeDesk(store.db);
    await addUnit(store.db, desk.id, { fields: { lease_end: addDays(TODAY, 5) } });
    await addWatch(store.db, desk.id, { every: null });
    const next = async () => {
      const ctx = deskContext(deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
      return (await upcomingWatches(ctx)).map((w) => w.next);
    };
    expect(await next()).toEqual([{ starts_on: TODAY, occurrence: addDays(TODAY, 5), unit: expect.any(String) }]);
    await passFor(desk);
    expect(await next()).toEqual([{ starts_on: null, why: 'waiting' }]);
    const [row] = await rowsOf(desk.id);
    await moveWork(store.db, desk.id, row!.id, 'open', 'done', { closed_at: TEST_NOW });
    expect((await passFor(desk)).created).toEqual([]);
    expect(await rowsOf(desk.id)).toHaveLength(1);
    expect(await next()).toEqual([{ starts_on: null, why: 'ended' }]);
  });

  it('a one-off watch still waits on the open row of a unit whose date has gone since', async () => {
    const { desk } = await makeDesk(store.db);
    const early = await addUnit(store.db, desk.id, { name: 'A', fields: { lease_end: addDays(TODAY, 5) } });
    const later = await addUnit(store.db, desk.id, { name: 'B', fields: { lease_end: addDays(TODAY, 6) } });
    await addWatch(store.db, desk.id, { every: null });
    await passFor(desk);
    const rows = await rowsOf(desk.id);
    expect(rows.map((r) => r.unit_id)).toEqual([early.id, later.id]);
    await moveWork(store.db, desk.id, rows[0]!.id, 'open', 'done', { closed_at: TEST_NOW });
    await store.db.updateTable('units').set({ fields: '{}' }).where('id', '=', later.id).execute();
    const ctx = deskContext(deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
    expect((await upcomingWatches(ctx)).map((w) => w.next)).toEqual([{ starts_on: null, why: 'waiting' }]);
  });

  it("keeps a watch's row on its unit, so taking it off makes no second row for the same date", async () => {
    const { desk } = await makeDesk(store.db);
    const unit = await addUnit(store.db, desk.id, { fields: { lease_end: addDays(TODAY, 5) } });
    const other = await addUnit(store.db, desk.id, { name: 'Other site', fields: {} });
    await addWatch(store.db, desk.id, { every: '30' });
    await passFor(desk);
    const [row] = await rowsOf(desk.id);
    const ctx = deskContext(deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
    for (const unit_id of ['', other.id]) {
      const refused = await editWork(ctx, row!.id, { unit_id }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'bad_request', details: { field: 'unit_id' } });
    }
    // Naming the unit it already has changes nothing and is not refused.
    await editWork(ctx, row!.id, { unit_id: unit.id, priority: 60 });
    expect((await passFor(desk)).created).toEqual([]);
    expect((await rowsOf(desk.id)).map((r) => [r.unit_id, r.watch_date])).toEqual([[unit.id, addDays(TODAY, 5)]]);
  });

  it('a watch removed and made again goes on from the rows it made, and makes no second row for a date', async () => {
    const { desk } = await makeDesk(store.db);
    await addUnit(store.db, desk.id, { fields: { lease_end: addDays(TODAY, 5) } });
    const first = await addWatch(store.db, desk.id, { every: '30', lead_days: 10 });
    await passFor(desk);
    const ctx = deskContext(deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
    await removeEntry(ctx, 'watch', first.id);
    const again = await addWatch(store.db, desk.id, { every: '30', lead_days: 10 });
    expect((await passFor(desk)).created).toEqual([]);
    const [row] = await rowsOf(desk.id);
    expect(await rowsOf(desk.id)).toHaveLength(1);
    // Once the row the removed watch made is done, the watch made again makes the next date's, in its lead.
    await moveWork(store.db, desk.id, row!.id, 'open', 'done', { closed_at: TEST_NOW });
    clock.set(`${addDays(TODAY, 25)}T12:00:00Z`);
    const next = (await passFor(desk)).created;
    expect(next.map((c) => [c.watch_id, c.watch_date])).toEqual([[again.id, addDays(TODAY, 35)]]);
    // A watch of another kind on the same unit is another obligation, and makes its own row.
    await addWatch(store.db, desk.id, { every: null, kind: 'lease_break', label: 'Lease break', lead_days: 60 });
    expect((await passFor(desk)).created.map((c) => c.title)).toEqual([expect.stringMatching(/^Lease break: /)]);
  });

  it("uses each desk's own today: a desk already on tomorrow starts a day earlier", async () => {
    // 10:00 UTC on the 22nd is midnight of the 23rd at UTC+14.
    const date = addDays('2026-11-23', 60);
    const utc = (await makeDesk(store.db, { timezone: 'UTC' })).desk;
    const ahead = (await makeDesk(store.db, { timezone: 'Pacific/Kiritimati' })).desk;
    for (const desk of [utc, ahead]) {
      await addUnit(store.db, desk.id, { fields: { lease_end: date } });
      await addWatch(store.db, desk.id, { lead_days: 60 });
    }
    expect((await passFor(utc)).created).toEqual([]);
    expect((await passFor(ahead)).created.map((c) => c.watch_date)).toEqual([date]);
  });

  it('runs every desk when none is named, and names an unknown desk as not found', async () => {
    const a = (await makeDesk(store.db)).desk;
    const b = (await makeDesk(store.db)).desk;
    for (const desk of [a, b]) {
      await addUnit(store.db, desk.id, { name: `Site of ${desk.slug}`, fields: { lease_end: addDays(TODAY, 1) } });
      await addWatch(store.db, desk.id);
    }
    const result = await runWatchPass(deps);
    expect(result.failures).toEqual([]);
    expect(result.created.filter((c) => c.desk_id === a.id || c.desk_id === b.id)).toHaveLength(2);
    expect((await runWatchPass(deps)).created).toEqual([]);
    await expect(runWatchPass(deps, { desk: 'no-such-desk' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the scheduler runs at start and on its interval; two passes still make one row', async () => {
    const { desk } = await makeDesk(store.db);
    await addUnit(store.db, desk.id, { fields: { lease_end: addDays(TODAY, 40) } });
    await addWatch(store.db, desk.id, { lead_days: 60 });
    const passes: WatchPassResult[] = [];
    let enough!: () => void;
    const twice = new Promise<void>((resolve) => (enough = resolve));
    const stop = startWatchScheduler(deps, {
      intervalMs: 5,
      log: { info: () => undefined, error: () => undefined },
      onPass: (r) => {
        passes.push(r);
        if (passes.length === 2) enough();
      },
    });
    await twice;
    await stop();
    const mine = passes.flatMap((p) => p.created).filter((c) => c.desk_id === desk.id);
    expect(mine).toHaveLength(1);
    expect(await rowsOf(desk.id)).toHaveLength(1);
    expect(await eventsOf(store.db, desk.id, 'work_created')).toHaveLength(1);
  });

  it('a failing pass is logged and the scheduler carries on; stopping waits for the pass in flight', async () => {
    const errors: Array<{ obj: object; msg: string }> = [];
    const log: SchedulerLog = { info: () => undefined, error: (obj, msg) => errors.push({ obj, msg }) };
    let calls = 0;
    let finished = 0;
    let third!: () => void;
    const reachedThird = new Promise<void>((resolve) => (third = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stop = startWatchScheduler(deps, {
      intervalMs: 1,
      log,
      pass: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database went away');
        if (calls === 3) {
          third();
          await held;
        }
        finished += 1;
        return { desks: 0, created: [], failures: calls === 2 ? [{ desk_id: 'dsk_x', error: 'bad row' }] : [] };
      },
    });
    await reachedThird;
    const stopped = stop();
    let done = false;
    void stopped.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false); // the third pass is still running
    release();
    await stopped;
    expect(finished).toBe(2);
    expect(calls).toBe(3);
    expect(errors.map((e) => e.msg)).toEqual([
      'The watch pass failed; the next one runs on schedule.',
      'The watch pass failed for a desk.',
    ]);
    expect((errors[0]!.obj as { err: Error }).err.message).toBe('database went away');
  });

  it('two processes passing at the same moment make exactly one row per watch, unit and date', async () => {
    const { desk } = await makeDesk(store.db);
    const watches = [
      await addWatch(store.db, desk.id, { lead_days: 60 }),
      await addWatch(store.db, desk.id, {
        field: 'insured_until',
        label: 'Insurance',
        lead_days: 30,
        kind: 'insurance',
        action: 'reach_out',
      }),
    ];
    const units = [];
    for (let i = 0; i < 12; i++) {
      units.push(
        await addUnit(store.db, desk.id, {
          name: `Unit ${i}`,
          fields: { lease_end: addDays(TODAY, 40 + i), insured_until: addDays(TODAY, i) },
        }),
      );
    }
    // Both connected and waiting, then started together.
    const results = await racePasses<WatchPassResult>('watch', store.target, TEST_NOW);
    for (const r of results) expect(r.failures, name).toEqual([]);

    const made = results.flatMap((r) => r.created).filter((c) => c.desk_id === desk.id);
    const rows = (await rowsOf(desk.id)).filter((r) => r.watch_id !== null);
    expect(rows).toHaveLength(watches.length * units.length);
    expect(made).toHaveLength(rows.length);
    expect(new Set(rows.map((r) => `${r.watch_id}:${r.unit_id}:${r.watch_date}`)).size).toBe(rows.length);
    expect(new Set(made.map((c) => c.work_id))).toEqual(new Set(rows.map((r) => r.id)));
    expect(await eventsOf(store.db, desk.id, 'work_created')).toHaveLength(rows.length);
    expect(await openCount(desk.id)).toBe(rows.length);
  }, 60_000);
});
