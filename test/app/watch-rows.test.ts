import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWatchPass } from '../../src/app/watches/pass.ts';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { addDays } from '../../src/domain/dates.ts';
import { removeEntry } from '../../src/domain/desks/remove.ts';
import { saveUnit } from '../../src/domain/desks/save-unit.ts';
import { saveWatch } from '../../src/domain/watches/save.ts';
import { addWork as saveWork } from '../../src/domain/work/add.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { closeWork } from '../../src/domain/work/status.ts';
import { exportDesk } from '../../src/domain/business/export.ts';
import { importBusinessText } from '../../src/domain/business/import.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// A watch knows the rows it made by unit and date, and once it is removed by their kind: a
// watch made again goes on from them (P-watches-2). Nothing the owner does to a watch or its rows
// has it make a second row for a date that has one (P-watches-5).

describe.each(DIALECTS)("a watch's rows ($name)", ({ open }) => {
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

  const watchForm = (kind: string) => ({
    subject_type: 'site',
    field: 'lease_end',
    label: 'Lease',
    lead_days: '60',
    kind,
    action: 'commit',
    every: '',
    priority: '50',
  });

  async function deskWithRow(): Promise<{
    owner: DeskContext;
    watchId: number;
    unitId: number;
    workId: number;
    date: string;
  }> {
    const { desk } = await makeDesk(store.db, { timezone: 'UTC' });
    const owner = deskContext(h.deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
    const date = addDays(owner.today(), 9);
    const unit = await saveUnit(owner, null, { type: 'site', name: 'Shop', fields: `lease_end: ${date}` });
    const watch = await saveWatch(owner, null, watchForm('lease_renwal'));
    const made = await runWatchPass(h.deps, { desk: desk.id });
    expect(made.created).toHaveLength(1);
    return { owner, watchId: watch.id, unitId: unit.id, workId: made.created[0]!.work_id, date };
  }

  const rowsOn = (owner: DeskContext, unitId: number) =>
    store.db
      .selectFrom('work')
      .select(['kind', 'watch_date', 'status'])
      .where('desk_id', '=', owner.desk.id)
      .where('unit_id', '=', unitId)
      .execute();

  it("takes a watch's corrected kind to its rows, so a watch made again after its removal goes on from them", async () => {
    const { owner, watchId, unitId, date } = await deskWithRow();
    await saveWatch(owner, watchId, watchForm('lease_renewal'));
    expect(await rowsOn(owner, unitId)).toEqual([{ kind: 'lease_renewal', watch_date: date, status: 'open' }]);
    await removeEntry(owner, 'watch', watchId);
    await saveWatch(owner, null, watchForm('lease_renewal'));
    expect((await runWatchPass(h.deps, { desk: owner.desk.id })).created).toEqual([]);
    expect(await rowsOn(owner, unitId)).toHaveLength(1);
  });

  it("refuses to give a row whose unit was removed a unit that has the watch's row for its date", async () => {
    const { owner, unitId, workId, date } = await deskWithRow();
    const twin = await saveUnit(owner, null, { type: 'site', name: 'Twin', fields: `lease_end: ${date}` });
    expect((await runWatchPass(h.deps, { desk: owner.desk.id })).created).toHaveLength(1);
    const other = await saveUnit(owner, null, { type: 'site', name: 'Yard', fields: '' });
    await removeEntry(owner, 'unit', unitId);
    await expect(editWork(owner, workId, { unit_id: twin.id })).rejects.toMatchObject({
      code: 'bad_request',
      details: { field: 'unit_id' },
      message: 'That unit already has the row its watch made for this date; close this row if it is not needed.',
    });
    // A unit without one takes it.
    expect((await editWork(owner, workId, { unit_id: other.id })).row.unit_id).toBe(other.id);
  });

  it("keeps a watch's row on its unit and of its kind, while the watch is there and after it is removed", async () => {
    const { owner, watchId, unitId, workId } = await deskWithRow();
    const other = await saveUnit(owner, null, { type: 'site', name: 'Yard', fields: '' });
    for (const removed of [false, true]) {
      if (removed) await removeEntry(owner, 'watch', watchId);
      await expect(editWork(owner, workId, { unit_id: other.id }), `unit, removed ${removed}`).rejects.toMatchObject({
        details: { field: 'unit_id' },
      });
      await expect(editWork(owner, workId, { kind: 'renewal' }), `kind, removed ${removed}`).rejects.toMatchObject({
        details: { field: 'kind' },
        message:
          'This row was opened by a watch as "lease_renwal" work, so it keeps that kind; close it if it is not needed.',
      });
      // Naming what it has is no change, and its other fields are the owner's to edit.
      await editWork(owner, workId, { kind: 'lease_renwal', unit_id: unitId, title: `Renew the lease ${removed}` });
    }
    await saveWatch(owner, null, watchForm('lease_renwal'));
    expect((await runWatchPass(h.deps, { desk: owner.desk.id })).created).toEqual([]);
    expect(await rowsOn(owner, unitId)).toHaveLength(1);
  });

  it("knows its rows again in a desk imported from the desk's business file, open or finished", async () => {
    for (const finish of [false, true]) {
      const { owner, workId, date } = await deskWithRow();
      if (finish) await closeWork(owner, workId);
      const file = await exportDesk(owner);
      const copy = await importBusinessText(store.db, file.text, {
        now: h.clock.now(),
        slug: `${owner.desk.slug}-copy`,
      });
      expect((await runWatchPass(h.deps, { desk: copy.desk.id })).created, `finished ${finish}`).toEqual([]);
      const rows = await store.db
        .selectFrom('work')
        .select(['watch_date', 'status'])
        .where('desk_id', '=', copy.desk.id)
        .execute();
      expect(rows).toEqual([{ watch_date: date, status: finish ? 'closed' : 'open' }]);
    }
  });

  it("keeps the owner's own row on the watch's date the owner's, and its own row the watch's, across an import", async () => {
    const { desk } = await makeDesk(store.db, { timezone: 'UTC' });
    const owner = deskContext(h.deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
    const date = addDays(owner.today(), 9);
    const unit = await saveUnit(owner, null, { type: 'site', name: 'Shop', fields: `lease_end: ${date}` });
    // The owner's row first, so that it comes first in the file too.
    const mine = await saveWork(owner, {
      title: 'Ask the landlord for the new rent',
      kind: 'lease_renwal',
      unit_id: unit.id,
      due: date,
    });
    await saveWatch(owner, null, watchForm('lease_renwal'));
    const made = await runWatchPass(h.deps, { desk: desk.id });
    expect(made.created).toHaveLength(1);
    const file = await exportDesk(owner);
    expect(file.text.indexOf(mine.title)).toBeLessThan(file.text.indexOf('Lease: Shop'));
    const copy = await importBusinessText(store.db, file.text, { now: h.clock.now(), slug: `${desk.slug}-own` });
    const rows = await store.db
      .selectFrom('work')
      .select(['title', 'watch_date'])
      .where('desk_id', '=', copy.desk.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { title: 'Ask the landlord for the new rent', watch_date: null },
      { title: 'Lease: Shop', watch_date: date },
    ]);
    expect((await runWatchPass(h.deps, { desk: copy.desk.id })).created).toEqual([]);
  });

  it('knows its rows again after the unit or the watch was renamed, which the rows keep as they were', async () => {
    for (const renamed of ['unit', 'watch'] as const) {
      const { owner, watchId, unitId, date } = await deskWithRow();
      if (renamed === 'unit')
        await saveUnit(owner, unitId, { type: 'site', name: 'Shop Two', fields: `lease_end: ${date}` });
      else await saveWatch(owner, watchId, { ...watchForm('lease_renwal'), label: 'Lease end' });
      expect((await runWatchPass(h.deps, { desk: owner.desk.id })).created).toEqual([]);
      const file = await exportDesk(owner);
      const copy = await importBusinessText(store.db, file.text, {
        now: h.clock.now(),
        slug: `${owner.desk.slug}-${renamed}`,
      });
      expect((await runWatchPass(h.deps, { desk: copy.desk.id })).created, renamed).toEqual([]);
      const rows = await store.db.selectFrom('work').select('watch_date').where('desk_id', '=', copy.desk.id).execute();
      expect(rows, renamed).toEqual([{ watch_date: date }]);
    }
  });
});
