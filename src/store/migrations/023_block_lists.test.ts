import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk } from '../../../test/helpers/factories.ts';
import { blockLists } from './023_block_lists.ts';

// A block stored with more kinds or fields than a block holds keeps its first 50 of each, so
// that the desk's export imports again; a block within the limit is left as it was.

describe.each(DIALECTS)("a stored block's lists ($name)", ({ open }) => {
  let store: TestStore;
  let deskId: string;
  const many = Array.from({ length: 60 }, (_, i) => `kind_${i}`);

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    const block = (id: string, kinds: string[], fields: Array<{ name: string; hint: string }>, position: number) => ({
      desk_id: deskId,
      id,
      position,
      title: id,
      blurb: '',
      kind: 'work',
      kinds: JSON.stringify(kinds),
      unit: null,
      fields: JSON.stringify(fields),
      why: '',
      created_at: '2026-11-22T10:00:00.000Z',
    });
    await store.db
      .insertInto('sections')
      .values([
        block(
          'big',
          many,
          many.map((name) => ({ name, hint: '' })),
          100,
        ),
        block('small', ['a', 'b'], [], 101),
      ])
      .execute();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('keeps the first 50 of each list of a block past them, and leaves the others', async () => {
    await blockLists('sqlite').up(store.db);
    const rows = await store.db
      .selectFrom('sections')
      .select(['id', 'kinds', 'fields'])
      .where('desk_id', '=', deskId)
      .where('id', 'in', ['big', 'small'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.id, JSON.parse(r.kinds).length, JSON.parse(r.fields).length])).toEqual([
      ['big', 50, 50],
      ['small', 2, 0],
    ]);
    expect(JSON.parse(rows[0]!.kinds)).toEqual(many.slice(0, 50));
  });
});
