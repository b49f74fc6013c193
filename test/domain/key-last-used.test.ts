import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, listKeys } from '../../src/domain/keys/create.ts';
import { LAST_USED_GRAIN_MS, noteKeyUse, verifyKey } from '../../src/domain/keys/verify.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// A key's "last used" is what the owner reads when deciding whether a program still needs it.

const at = (ms: number) => new Date(new Date(TEST_NOW).getTime() + ms).toISOString();

describe.each(DIALECTS)('a key records its last use ($name)', ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store?.close());

  it('is never used when made, then keeps the time of use to the minute', async () => {
    const { desk, key, keyId } = await makeDesk(store.db);
    const lastUsed = async () => (await listKeys(store.db, desk.id)).find((k) => k.id === keyId)?.last_used_at;
    expect(await lastUsed()).toBeNull();

    const use = async (ms: number) => noteKeyUse(store.db, (await verifyKey(store.db, key, at(ms))).key, at(ms));
    // Verifying alone writes nothing: only an answered request counts as a use.
    await verifyKey(store.db, key, at(500));
    expect(await lastUsed()).toBeNull();
    await use(1000);
    expect(await lastUsed()).toBe(at(1000));
    // Within the grain the first time stands; after it, the new time is kept.
    await use(1000 + LAST_USED_GRAIN_MS - 1);
    expect(await lastUsed()).toBe(at(1000));
    await use(1000 + LAST_USED_GRAIN_MS + 1);
    expect(await lastUsed()).toBe(at(1000 + LAST_USED_GRAIN_MS + 1));
  });

  it('is not touched by a refused key', async () => {
    const { desk, keyId } = await makeDesk(store.db);
    await expect(verifyKey(store.db, `desk_${'0'.repeat(40)}`, at(5000))).rejects.toThrow();
    expect((await listKeys(store.db, desk.id)).find((k) => k.id === keyId)?.last_used_at).toBeNull();
  });

  it("keeps a key's name with the direction it opens closed, and holds it to 200 characters so kept", async () => {
    const { desk } = await makeDesk(store.db);
    const made = await createKey(store.db, { deskId: desk.id, name: ' ab\u202eevil ', now: TEST_NOW });
    expect((await listKeys(store.db, desk.id)).find((k) => k.id === made.id)?.name).toBe('ab\u202eevil\u202c');
    await expect(
      createKey(store.db, { deskId: desk.id, name: `\u202e${'n'.repeat(199)}`, now: TEST_NOW }),
    ).rejects.toThrow("A key's name is at most 200 characters.");
  });
});
