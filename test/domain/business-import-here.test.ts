import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDesk } from '../../src/domain/business/export.ts';
import { importIntoDesk } from '../../src/domain/business/import-here.ts';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { DeskError } from '../../src/domain/errors.ts';
import { HELD_COUNTED, heldOn } from '../../src/store/repositories/business.ts';
import { createKey } from '../../src/domain/keys/create.ts';
import { expiryAfter, lastDayOf } from '../../src/domain/keys/expiry.ts';
import { addDays, dateIn } from '../../src/domain/dates.ts';
import { findDesk, keysOf } from '../../src/store/repositories/desks.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { EVERYTHING } from '../helpers/business-file.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeArrangement, makeDesk, makeWork, makeWorkMany } from '../helpers/factories.ts';

// The screen's Import: a business file into the owner's own desk, only while it holds nothing,
// all or nothing, and written down as the owner's doing.

describe.each(DIALECTS)('importing into an empty desk ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  const owner = async (slug: string): Promise<DeskContext> => {
    const { desk } = await makeDesk(store.db, { slug, name: 'Blank', timezone: 'UTC' });
    return deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  };
  const events = (deskId: string) =>
    store.db.selectFrom('events').select(['kind', 'data']).where('desk_id', '=', deskId).orderBy('id').execute();

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it("takes the file's settings and rails but keeps the desk's slug, and logs the owner as who did it", async () => {
    const ctx = await owner('blank-one');
    const r = await importIntoDesk(ctx, EVERYTHING);
    expect(r.counts).toMatchObject({ work: 8, arrangements: 2, units: 2, watches: 2, connections: 3 });
    const desk = (await findDesk(store.db, ctx.desk.id))!;
    expect(desk).toMatchObject({
      slug: 'blank-one',
      name: 'Round Trip Cafe',
      timezone: 'America/New_York',
      currency: 'USD',
      broker: 'Sedo',
      // The rails come too: the file's desk is paused, so this one is, and does nothing on its own.
      hours: 'mon-sat 08:00-18:00',
      daily_cap: 7,
      act_within_days: 10,
      paused: 1,
    });
    const kinds = await events(ctx.desk.id);
    const imported = kinds.find((e) => e.kind === 'desk_imported')!;
    expect(JSON.parse(imported.data)).toEqual({ work: 8, by: 'owner' });
    const grants = kinds.filter((e) => e.kind === 'grant_changed').map((e) => JSON.parse(e.data).by);
    expect(grants).toEqual(['owner', 'owner']);

    await exportDesk(deskContext(h.deps, desk, { type: 'owner', name: 'owner' }));
    const exported = (await events(ctx.desk.id)).find((e) => e.kind === 'desk_exported')!;
    expect(JSON.parse(exported.data)).toEqual({ by: 'owner', work: 8, secrets_left_out: 3 });
  });

  it("keeps the desk's own rails where the file gives none: a desk paused before its file came in stays paused", async () => {
    const ctx = await owner('blank-paused');
    await writeRails(store.db, ctx.desk.id, { paused: true, hours: 'always', daily_cap: 3, act_within_days: 5 });
    const paused = deskContext(h.deps, (await findDesk(store.db, ctx.desk.id))!, { type: 'owner', name: 'owner' });
    await importIntoDesk(
      paused,
      'desk: { name: Quiet Shop, slug: quiet-shop, daily_cap: 9 }\nwork:\n  - { title: Renew the licence }\n',
    );
    expect(await findDesk(store.db, ctx.desk.id)).toMatchObject({
      name: 'Quiet Shop',
      paused: 1,
      hours: 'always',
      daily_cap: 9,
      act_within_days: 5,
    });
  });

  it("keeps each key's last day when the file moves the desk to another time zone", async () => {
    const ctx = await owner('blank-keys');
    const today = dateIn('UTC', h.clock.now());
    const lastDay = addDays(today, 30);
    const dated = await createKey(store.db, {
      deskId: ctx.desk.id,
      name: 'ci',
      expiresAt: expiryAfter('UTC', lastDay),
      now: ctx.now(),
    });
    const open = await createKey(store.db, { deskId: ctx.desk.id, name: 'forever', now: ctx.now() });
    await importIntoDesk(ctx, 'desk: { name: Far Shop, slug: far-shop, timezone: Pacific/Kiritimati }\nwork: []\n');
    const keys = await keysOf(store.db, ctx.desk.id);
    const expiry = (id: number) => keys.find((k) => k.id === id)!.expires_at;
    expect(expiry(dated.id)).toBe(expiryAfter('Pacific/Kiritimati', lastDay));
    expect(lastDayOf('Pacific/Kiritimati', expiry(dated.id)!)).toBe(lastDay);
    expect(expiry(open.id)).toBeNull();
  });

  it('refuses a desk that holds anything, in words, and writes nothing', async () => {
    const ctx = await owner('blank-two');
    await makeWork(store.db, ctx.desk.id, { title: 'Already here' });
    const before = await heldOn(store.db, ctx.desk.id);
    const err = await importIntoDesk(ctx, EVERYTHING).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeskError);
    expect((err as DeskError).code).toBe('bad_request');
    expect((err as DeskError).message).toBe(
      'This desk already holds 1 work item. A business file is read only into an empty desk, so nothing was written; import it as a new desk with `desk import FILE --slug NEW-SLUG` instead.',
    );
    expect(await heldOn(store.db, ctx.desk.id)).toEqual(before);
    expect((await findDesk(store.db, ctx.desk.id))!.name).toBe('Blank');
  });

  it('counts what a large desk holds no further than it needs to say so', async () => {
    const ctx = await owner('blank-large');
    await makeWorkMany(
      store.db,
      ctx.desk.id,
      Array.from({ length: HELD_COUNTED + 5 }, (_, i) => ({ title: `Row ${i}` })),
    );
    await makeArrangement(store.db, ctx.desk.id);
    expect(await heldOn(store.db, ctx.desk.id)).toMatchObject({ work: HELD_COUNTED + 1, arrangements: 1, units: 0 });
    const err = await importIntoDesk(ctx, EVERYTHING).catch((e: unknown) => e);
    expect((err as DeskError).message).toMatch(/^This desk already holds more than 1,000 work items, 1 arrangement\. /);
  });

  it('lists every mistake in a file at once and leaves the empty desk as it was', async () => {
    const ctx = await owner('blank-three');
    const bad = EVERYTHING.replace('class: chase, priority: 60', 'class: chase, priority: 600')
      .replace('grants: [reach_out, file]', 'grants: [reach_out, money]')
      .replace('unit: main-st, due: "+30d"', 'unit: nowhere, due: "+30d"');
    const err = (await importIntoDesk(ctx, bad).catch((e: unknown) => e)) as DeskError;
    expect(err.message).toMatch(/^The business file has 3 errors; nothing was written\./);
    expect(err.details?.errors).toEqual([
      'grants[1]: "money" cannot be granted: paying money always needs a person',
      'work[0] "Get the oven repair quote".priority: 600 must be between 1 and 100',
      'work[2] "Sign the lease renewal".unit: no unit has ref "nowhere"',
    ]);
    expect(Object.values(await heldOn(store.db, ctx.desk.id)).every((n) => n === 0)).toBe(true);
    expect((await findDesk(store.db, ctx.desk.id))!).toMatchObject({ name: 'Blank', timezone: 'UTC' });
  });
});
