import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeArrangement, makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import { NO_DATE_KEY, openByArrangement, recountByArrangement } from '../repositories/open-counts.ts';
import { undatedLast } from './014_undated_last.ts';

// Undated rows move from the key of 9999-12-31 to one after it, and the per-arrangement counts
// that mixed both are counted again. Taken down and up again on a migrated store, so the rows
// are first as an older desk holds them. Dates here are plain keys; no clock is read.

describe.each(DIALECTS)('undated rows after every date ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;
  let arrangementId: number;

  const keys = async () =>
    (
      await store.db
        .selectFrom('work')
        .select(['title', 'due_key'])
        .where('desk_id', '=', deskId)
        .orderBy('id')
        .execute()
    ).map((r) => `${r.title} ${r.due_key}`);
  const counts = async () =>
    (
      await store.db
        .selectFrom('open_arrangement_counts')
        .select(['due_key', 'n'])
        .where('desk_id', '=', deskId)
        .orderBy('due_key')
        .execute()
    ).map((r) => `${r.due_key} ${Number(r.n)}`);

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    arrangementId = (await makeArrangement(store.db, deskId)).id;
    await makeWorkMany(store.db, deskId, [
      { title: 'undated', due_date: null, arrangement_id: arrangementId },
      { title: 'last-day', due_date: '9999-12-31', arrangement_id: arrangementId },
      { title: 'dated', due_date: '2026-03-01', arrangement_id: null },
      {
        title: 'finished',
        due_date: null,
        arrangement_id: arrangementId,
        status: 'done',
        closed_at: '2026-03-01T00:00:00.000Z',
      },
    ]);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('keeps a row with no date under NO_DATE_KEY, after 9999-12-31, and counts the two apart', async () => {
    expect(NO_DATE_KEY > '9999-12-31').toBe(true);
    expect(await keys()).toEqual([
      'undated 9999-12-32',
      'last-day 9999-12-31',
      'dated 2026-03-01',
      'finished 9999-12-32',
    ]);
    expect(await counts()).toEqual(['9999-12-31 1', '9999-12-32 1']);
    const [a] = await openByArrangement(store.db, deskId, '2026-03-01');
    expect(a).toMatchObject({ open_work: 2, next_due: '9999-12-31' });
  });

  it('down gives the old keys and the mixed count; up parts them again', async () => {
    await undatedLast(name).down!(store.db);
    expect(await keys()).toEqual([
      'undated 9999-12-31',
      'last-day 9999-12-31',
      'dated 2026-03-01',
      'finished 9999-12-31',
    ]);
    expect(await counts()).toEqual(['9999-12-31 2']);
    await undatedLast(name).up(store.db);
    expect(await counts()).toEqual(['9999-12-31 1', '9999-12-32 1']);
    expect(await keys()).toContain('undated 9999-12-32');
    expect(await recountByArrangement(store.db, deskId, '2026-03-05')).toEqual([
      { arrangement_id: arrangementId, open_work: 2, overdue_work: 0, next_due: '9999-12-31' },
    ]);
  });
});
