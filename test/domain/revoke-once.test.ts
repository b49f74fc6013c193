import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/domain/keys/revoke.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// One key revoked from several places at once (two tabs, the screen and the CLI) is revoked
// once: one of them says it revoked it, and the log has one entry.

describe.each(DIALECTS)('a key revoked several times at once ($name)', ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('is revoked once, logged once, at the time of the revoke that did it', async () => {
    const { desk, keyId } = await makeDesk(store.db);
    const times = Array.from({ length: 8 }, (_, i) => `2026-11-22T10:00:0${i}.000Z`);
    const answers = await Promise.all(times.map((now) => revokeKey(store.db, { keyId, now })));
    expect(answers.filter((a) => !a.already)).toHaveLength(1);
    const events = await store.db
      .selectFrom('events')
      .select(['created_at'])
      .where('desk_id', '=', desk.id)
      .where('kind', '=', 'key_revoked')
      .execute();
    expect(events).toHaveLength(1);
    const key = await store.db
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(key.revoked_at).toBe(events[0]!.created_at);
  });
});
