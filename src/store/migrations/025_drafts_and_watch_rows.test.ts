import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { addUnit, addWatch } from '../../../test/helpers/business.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { draftsAndWatchRows } from './025_drafts_and_watch_rows.ts';

// What earlier versions wrote and the rules of P-mail-10 and P-watches-5 no longer make: a
// prepared message's subject over two lines, and a watch's row of another kind than its watch.
// Dates here are plain keys; no clock is read.

describe.each(DIALECTS)('prepared subjects and watch rows brought to the rules ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
  });
  afterAll(async () => {
    await store?.close();
  });

  it('makes unsent subjects one line, leaves sent ones, and gives watch rows their watch kind', async () => {
    const row = await makeWork(store.db, deskId, { title: 'Write' });
    const drafted = await makeDraft(store.db, deskId, row.id, { subject: 'Line one\nline  two\t' });
    const sent = await makeDraft(store.db, deskId, row.id, { subject: 'Went\nas it was', status: 'sent' });
    const plain = await makeDraft(store.db, deskId, row.id, { subject: 'Keep  these  spaces' });
    const watch = await addWatch(store.db, deskId, { kind: 'lease_renewal' });
    const unit = await addUnit(store.db, deskId, { name: 'Shop' });
    const edited = await makeWork(store.db, deskId, {
      title: 'Lease',
      kind: 'lease_custom',
      watch_id: watch.id,
      unit_id: unit.id,
      watch_date: '2027-01-09',
    });
    const orphan = await makeWork(store.db, deskId, {
      title: 'Old lease',
      kind: 'lease_custom',
      unit_id: unit.id,
      watch_date: '2026-01-09',
    });

    await draftsAndWatchRows(name).up(store.db);

    const subject = async (id: number) =>
      (await store.db.selectFrom('activity').select('subject').where('id', '=', id).executeTakeFirstOrThrow()).subject;
    expect(await subject(drafted.id)).toBe('Line one line  two');
    expect(await subject(sent.id)).toBe('Went\nas it was');
    expect(await subject(plain.id)).toBe('Keep  these  spaces');
    const kind = async (id: number) =>
      (await store.db.selectFrom('work').select('kind').where('id', '=', id).executeTakeFirstOrThrow()).kind;
    expect(await kind(edited.id)).toBe('lease_renewal');
    // A row whose watch is gone keeps the kind it has: nothing says which it was.
    expect(await kind(orphan.id)).toBe('lease_custom');
  });
});
