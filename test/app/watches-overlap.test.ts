import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWatchPass } from '../../src/app/watches/pass.ts';
import { deskContext } from '../../src/domain/context.ts';
import { addDays } from '../../src/domain/dates.ts';
import { saveUnit } from '../../src/domain/desks/save-unit.ts';
import { saveWatch } from '../../src/domain/watches/save.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// Two watch passes over one desk at once (two servers, or `desk watches run` beside one), with
// the owner moving a unit's date between them: one row for the unit, not one for each date.

describe.each(DIALECTS)('watch passes that overlap ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('make one row for a unit whose date moved while the first pass was under way', async () => {
    const { desk } = await makeDesk(store.db, { timezone: 'UTC' });
    const owner = deskContext(h.deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
    const today = owner.today();
    const units = [];
    for (let i = 0; i < 60; i++)
      units.push(
        await saveUnit(owner, null, { type: 'site', name: `Site ${i}`, fields: `lease_end: ${addDays(today, 9)}` }),
      );
    await saveWatch(owner, null, {
      subject_type: 'site',
      field: 'lease_end',
      label: 'Lease',
      lead_days: '60',
      kind: 'lease',
      action: 'commit',
      every: '',
      priority: '50',
    });
    const last = units.at(-1)!;
    const rowsOf = (unitId?: number) =>
      store.db
        .selectFrom('work')
        .select(['unit_id', 'watch_date', 'status'])
        .where('desk_id', '=', desk.id)
        .$if(unitId !== undefined, (q) => q.where('unit_id', '=', unitId!))
        .execute();

    const first = runWatchPass(h.deps, { desk: desk.id });
    while ((await rowsOf()).length < 3) await new Promise((r) => setTimeout(r, 1));
    // The first pass has read the old date of the last unit and not yet made its row.
    expect((await rowsOf(last.id)).length).toBe(0);
    await saveUnit(owner, last.id, { type: 'site', name: last.name, fields: `lease_end: ${addDays(today, 28)}` });
    const second = runWatchPass(h.deps, { desk: desk.id });
    const results = await Promise.all([first, second]);
    expect(results.flatMap((r) => r.failures)).toEqual([]);

    const made = await rowsOf(last.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ watch_date: addDays(today, 28), status: 'open' });
    expect(await rowsOf()).toHaveLength(units.length);
  }, 60_000);
});
