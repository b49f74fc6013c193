import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { plan } from '../../../test/helpers/plan.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { addressKey } from '../../domain/mail/address.ts';
import { foldedAddress } from '../dialect.ts';
import { lastSentToSince, sentToQuery } from '../repositories/activity.ts';

// An address is folded the same way in code and in either database's queries: A to Z only, so
// the one-message-a-day rule and reply matching never see one address as two, or two as one,
// depending on where the comparison is made. The moments here are plain keys; no clock is read.

const ADDRESSES = ['Lee@Same.Test', 'ZOË@X.Test', 'zoë@x.test', 'ΝΙΚΟΣ@x.test', 'İRİS@x.test', 'ǅemal@x.test'];

describe.each(DIALECTS)('addresses folded A to Z only ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    const row = await makeWork(store.db, deskId, { title: 'Write to them all' });
    for (const to of ADDRESSES) {
      const m = await makeDraft(store.db, deskId, row.id, { to, status: 'sent' });
      await store.db
        .updateTable('activity')
        .set({ sent_at: '2026-03-01T10:00:00.000Z' })
        .where('id', '=', m.id)
        .execute();
    }
  });
  afterAll(async () => {
    await store?.close();
  });

  it('folds each address in a query as the code does', async () => {
    const rows = await store.db
      .selectFrom('activity')
      .select(['to_address', foldedAddress(store.db, 'to_address').as('folded')])
      .where('desk_id', '=', deskId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.to_address, r.folded])).toEqual(ADDRESSES.map((a) => [a, addressKey(a)]));
    expect(addressKey(' ZOË@X.Test ')).toBe('zoË@x.test');
  });

  it('finds a message by its address in either case of A to Z, and only so', async () => {
    const since = '2026-03-01T00:00:00.000Z';
    expect(await lastSentToSince(store.db, deskId, 'zoË@x.TEST', since)).toBe('2026-03-01T10:00:00.000Z');
    expect(await lastSentToSince(store.db, deskId, 'νικοσ@x.test', since)).toBeNull();
    expect(await lastSentToSince(store.db, deskId, 'ΝΙΚΟΣ@X.TEST', since)).toBe('2026-03-01T10:00:00.000Z');
    expect(await lastSentToSince(store.db, deskId, 'iris@x.test', since)).toBeNull();
  });

  it('reads activity_sent_to, not the table', async () => {
    const p = await plan(store.db, name, sentToQuery(store.db, deskId, 'zoË@x.test', '2026-03-01').compile());
    expect(p).toContain('activity_sent_to');
    expect(p).not.toMatch(/SCAN activity\b|Seq Scan/);
  });
});
