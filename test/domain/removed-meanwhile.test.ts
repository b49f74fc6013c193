import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { removeEntry } from '../../src/domain/desks/remove.ts';
import { saveUnit } from '../../src/domain/desks/save-unit.ts';
import { DeskError } from '../../src/domain/errors.ts';
import { addWork } from '../../src/domain/work/add.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { addArrangement } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// An arrangement or a unit removed while a save points at it (checked, then removed, then
// written): the save is refused as it would be a moment later, never the database's own error.
// Which comes first differs from round to round; every outcome must be one of the two.

const ROUNDS = 12;

describe.each(DIALECTS)('a save racing the removal of what it points at ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let owner: DeskContext;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const { desk } = await makeDesk(store.db);
    owner = deskContext(h.deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  /** Runs both; the save either lands or is refused by the desk, never by the database. */
  async function race(save: () => Promise<unknown>, remove: () => Promise<unknown>): Promise<'saved' | 'refused'> {
    const [saved, removed] = await Promise.allSettled([save(), remove()]);
    expect(removed.status).toBe('fulfilled');
    if (saved.status === 'fulfilled') return 'saved';
    expect(saved.reason, String(saved.reason)).toBeInstanceOf(DeskError);
    expect((saved.reason as DeskError).code).toBe('bad_request');
    return 'refused';
  }

  it('a row edited or added onto an arrangement or unit being removed', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const row = await makeWork(store.db, owner.desk.id, { title: `Row ${i}` });
      const arrangement = await addArrangement(store.db, owner.desk.id, { name: `Deal ${i}` });
      await race(
        () => editWork(owner, row.id, { arrangement_id: arrangement.id }),
        () => removeEntry(owner, 'arrangement', arrangement.id),
      );
      const unit = await saveUnit(owner, null, { type: 'site', name: `Site ${i}`, fields: '' });
      await race(
        () => addWork(owner, { title: `New ${i}`, unit_id: unit.id }),
        () => removeEntry(owner, 'unit', unit.id),
      );
      const deal = await addArrangement(store.db, owner.desk.id, { name: `Lease ${i}` });
      await race(
        () => saveUnit(owner, null, { type: 'site', name: `Shop ${i}`, fields: '', arrangement: String(deal.id) }),
        () => removeEntry(owner, 'arrangement', deal.id),
      );
    }
  }, 60_000);
});
