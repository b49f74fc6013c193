import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { removeSection, sectionTitle } from '../../src/domain/desks/sections.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { addSection } from '../helpers/business.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// A block is named by the id in the screen's address: one no stored id can be names nothing,
// on either database, rather than failing the query.

describe.each(DIALECTS)('a block named by an id that holds a NUL ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const { desk } = await makeDesk(store.db);
    await addSection(store.db, desk.id, { id: 'obligations' });
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('is not found, to look at or to remove, and the stored block stays', async () => {
    for (const id of ['\u0000', 'obligations\u0000']) {
      await expect(sectionTitle(ctx, id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(removeSection(ctx, id)).rejects.toMatchObject({ code: 'not_found' });
    }
    expect(await sectionTitle(ctx, 'obligations')).toBeTruthy();
  });
});
