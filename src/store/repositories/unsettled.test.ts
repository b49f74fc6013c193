import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { plan } from '../../../test/helpers/plan.ts';
import { claimDraft } from './activity.ts';
import { settleClaim, unsettledClaims, unsettledQuery } from './unsettled.ts';

// The claims a stopped send left are found through their own small index, whatever the size of
// the desk's correspondence; and a claim whose send recorded how it ended is not one. The
// instants are plain keys given to the queries: no clock is read.

describe.each(DIALECTS)('unsettled claims ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;
  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
  });
  afterAll(async () => {
    await store?.close();
  });

  it('are read down activity_unsettled', async () => {
    const q = unsettledQuery(
      store.db,
      deskId,
      { now: '2026-01-01T00:00:00.000Z', legacyBefore: '2026-01-01T00:00:00.000Z' },
      20,
    ).compile();
    expect(await plan(store.db, name, q)).toContain('activity_unsettled');
  });

  it('are the claims past their own instant, or begun before the line when they have none, with nothing recorded; a settled one is not settled again', async () => {
    const row = await makeWork(store.db, deskId, { title: 'Claimed' });
    const early = await makeDraft(store.db, deskId, row.id);
    const late = await makeDraft(store.db, deskId, row.id);
    const legacy = await makeDraft(store.db, deskId, row.id);
    const drafted = await makeDraft(store.db, deskId, row.id);
    await claimDraft(store.db, deskId, early.id, '2026-01-01T00:00:00.000Z', '2026-01-01T00:02:00.000Z');
    // Claimed earlier than the line, by a process allowed a longer wait on its mail server.
    await claimDraft(store.db, deskId, late.id, '2026-01-01T00:01:00.000Z', '2026-01-01T00:30:00.000Z');
    await claimDraft(store.db, deskId, legacy.id, '2026-01-01T00:03:00.000Z', '2026-01-01T00:04:00.000Z');
    await store.db.updateTable('activity').set({ send_stale_at: null }).where('id', '=', legacy.id).execute();
    const line = { now: '2026-01-01T00:15:00.000Z', legacyBefore: '2026-01-01T00:05:00.000Z' };
    const found = await unsettledClaims(store.db, deskId, line, 20);
    expect(found.map((c) => c.id)).toEqual([early.id, legacy.id]);
    expect(found.map((c) => c.id)).not.toContain(drafted.id);
    expect(await settleClaim(store.db, early.id, 'not known')).toBe(true);
    expect(await settleClaim(store.db, early.id, 'not known')).toBe(false);
    expect(
      await unsettledClaims(
        store.db,
        deskId,
        { now: '2026-01-02T00:00:00.000Z', legacyBefore: '2026-01-01T23:58:00.000Z' },
        20,
      ),
    ).toEqual([expect.objectContaining({ id: late.id }), expect.objectContaining({ id: legacy.id })]);
  });
});
