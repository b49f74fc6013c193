import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDemo, importDemoIfAbsent } from '../../src/domain/business/demo.ts';
import { listKeys } from '../../src/domain/keys/create.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';

// A first start makes the demo desk only where there is none: a process that finds it already
// made leaves it, and its keys, as they were.

describe.each(DIALECTS)('the demo desk on first start ($name)', ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store?.close());

  it('is made once, and a second first start makes no key', async () => {
    const now = new Date(TEST_NOW);
    const made = await importDemoIfAbsent(store.db, { now, keyName: 'demo' });
    expect(made?.created).toBe(true);
    expect(await importDemoIfAbsent(store.db, { now, keyName: 'demo' })).toBeNull();
    expect((await listKeys(store.db, made!.desk.id)).map((k) => k.name)).toEqual(['demo']);
    // `desk demo`, asked for by name, still hands out another key to the same desk.
    const again = await importDemo(store.db, { now, keyName: 'second' });
    expect(again).toMatchObject({ created: false, desk: { id: made!.desk.id } });
    expect((await listKeys(store.db, made!.desk.id)).map((k) => k.name).sort()).toEqual(['demo', 'second']);
  });
});
