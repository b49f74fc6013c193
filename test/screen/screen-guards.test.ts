import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// The screen's doors, knocked on without a browser: the files it serves, the session a link
// starts, and the forms a session may send.

describe("the screen's guards", () => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('serves only its own asset files: a name that is a property of every object is not one', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await h.app.inject({ method: 'GET', url: `/assets/${name}` });
      expect(res.statusCode, name).toBe(404);
    }
    expect((await h.app.inject({ method: 'GET', url: '/assets/screen.js' })).statusCode).toBe(200);
  });
});
