import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext } from '../../src/domain/context.ts';
import { addArrangementNote } from '../../src/domain/arrangements/note.ts';
import { removeEntry, tiedToArrangement } from '../../src/domain/desks/remove.ts';
import { draftWork } from '../../src/domain/work/draft.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { addArrangement } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';

// Removing an arrangement takes its own notes with it; what was written on its rows (messages
// sent and prepared) stays with the rows, which belong to no arrangement afterwards.

describe.each(DIALECTS)('removing an arrangement ($name)', ({ open }) => {
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

  it("takes its notes, and leaves its rows' messages on the rows", async () => {
    const d = await makeDesk(store.db);
    const ctx = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' });
    const lease = await addArrangement(store.db, d.desk.id, { name: 'Mill lease' });
    await addArrangementNote(ctx, lease.id, { body: 'Rent rises in March.' });
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask about the rent',
      arrangement_id: lease.id,
      contact_name: 'Sam',
      contact_email: 'sam@landlord.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { status: 'sent', sentAt: h.clock.now().toISOString() });
    await store.db
      .updateTable('activity')
      .set({ arrangement_id: lease.id })
      .where('obligation_id', '=', row.id)
      .execute();
    expect(await draftWork(ctx, row.id)).toMatchObject({ drafted: true });
    const onRow = () =>
      store.db
        .selectFrom('activity')
        .select(['kind', 'status', 'arrangement_id'])
        .where('obligation_id', '=', row.id)
        .orderBy('id')
        .execute();
    expect((await onRow()).map((a) => a.arrangement_id)).toEqual([lease.id, lease.id]);

    expect(await tiedToArrangement(ctx, lease.id)).toEqual({ notes: 1, rows: 1, units: 0 });
    await removeEntry(ctx, 'arrangement', lease.id);

    expect(await onRow()).toEqual([
      { kind: 'message', status: 'sent', arrangement_id: null },
      { kind: 'message', status: 'drafted', arrangement_id: null },
    ]);
    const notes = await store.db
      .selectFrom('activity')
      .select('id')
      .where('desk_id', '=', d.desk.id)
      .where('kind', '=', 'note')
      .execute();
    expect(notes).toEqual([]);
  });
});
