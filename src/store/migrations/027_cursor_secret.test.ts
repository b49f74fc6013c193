import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/helpers/db.ts';
import { cursorSecret, CURSOR_SECRET_SETTING } from '../../domain/work/cursor.ts';

// A new database holds its cursors' secret from the start, so no read of the queue writes it.

describe.each(DIALECTS)("a new database's cursor secret ($name)", ({ open }) => {
  it('is there before anything reads the queue, and is the one cursors are signed with', async () => {
    const store = await open();
    try {
      const kept = await store.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', CURSOR_SECRET_SETTING)
        .executeTakeFirst();
      expect(kept?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await cursorSecret(store.db)).toString('base64url')).toBe(kept!.value);
    } finally {
      await store.close();
    }
  });
});
