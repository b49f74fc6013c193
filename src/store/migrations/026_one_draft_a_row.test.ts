import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { oneDraftARow } from './026_one_draft_a_row.ts';

// Rows an earlier import left with several prepared messages keep the newest, the one the desk
// sends; sent messages and other rows' drafts stay as they were.

describe.each(DIALECTS)('one prepared message a row ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
  });
  afterAll(async () => {
    await store?.close();
  });

  it('withdraws all but the newest draft of each row', async () => {
    const many = await makeWork(store.db, deskId, { title: 'Several' });
    const sent = await makeDraft(store.db, deskId, many.id, { subject: 'Went', status: 'sent' });
    const first = await makeDraft(store.db, deskId, many.id, { subject: 'First' });
    const second = await makeDraft(store.db, deskId, many.id, { subject: 'Second' });
    const newest = await makeDraft(store.db, deskId, many.id, { subject: 'Newest' });
    const one = await makeWork(store.db, deskId, { title: 'One' });
    const only = await makeDraft(store.db, deskId, one.id, { subject: 'Only' });

    await oneDraftARow(name).up(store.db);

    const left = await store.db
      .selectFrom('activity')
      .select('id')
      .where('kind', '=', 'message')
      .orderBy('id')
      .execute();
    expect(left.map((m) => m.id)).toEqual([sent.id, newest.id, only.id]);
    expect([first.id, second.id].some((id) => left.some((m) => m.id === id))).toBe(false);
  });
});
