import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { plan } from '../../../test/helpers/plan.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { lastSentToSince, sentToQuery } from '../repositories/activity.ts';

// The one-message-a-day rule finds what the desk sent to an address in any letter case, down
// the index that holds addresses in lower case. The moments here are plain keys; no clock is read.

describe.each(DIALECTS)('addresses in any case ($name)', ({ name, open }) => {
  let store: TestStore;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    deskId = (await makeDesk(store.db)).desk.id;
    const row = await makeWork(store.db, deskId, { title: 'Write to Lee' });
    const m = await makeDraft(store.db, deskId, row.id, { to: 'Lee@Same.Test', status: 'sent' });
    await store.db
      .updateTable('activity')
      .set({ sent_at: '2026-03-01T10:00:00.000Z' })
      .where('id', '=', m.id)
      .execute();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('finds a message sent to the address written in other letters', async () => {
    for (const to of ['lee@same.test', 'LEE@SAME.TEST', ' Lee@Same.Test '])
      expect(await lastSentToSince(store.db, deskId, to, '2026-03-01T00:00:00.000Z'), to).toBe(
        '2026-03-01T10:00:00.000Z',
      );
    expect(await lastSentToSince(store.db, deskId, 'lee@same.test', '2026-03-02T00:00:00.000Z')).toBeNull();
    expect(await lastSentToSince(store.db, deskId, 'sam@same.test', '2026-03-01T00:00:00.000Z')).toBeNull();
  });

  it('reads activity_sent_to, not the table', async () => {
    const p = await plan(store.db, name, sentToQuery(store.db, deskId, 'lee@same.test', '2026-03-01').compile());
    expect(p).toContain('activity_sent_to');
    expect(p).not.toMatch(/SCAN activity\b|Seq Scan/);
  });
});
