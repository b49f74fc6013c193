import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createSignInLink } from '../../src/domain/owner/sign-in.ts';
import { harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// Behind an https address the screen's cookies are Secure and HSTS is sent, however the
// address's scheme was written; behind an http one (a desk on a laptop) they cannot be.

describe("the screen's cookies and the public address", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await sqliteStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  it.each([
    ['https://desk.example.com', true],
    ['HTTPS://Desk.Example.com', true],
    ['https:desk.example.com', true],
    ['http://desk.example.com', false],
  ])('%s: Secure and HSTS %s', async (raw, secure) => {
    const h = await harness(store, { config: { publicUrl: loadConfig({ DESK_PUBLIC_URL: raw }).publicUrl } });
    try {
      const { desk } = await makeDesk(store.db);
      const { token } = await createSignInLink(store.db, desk.id, h.clock.now());
      const opened = await h.app.inject({ method: 'GET', url: `/sign-in?token=${encodeURIComponent(token)}` });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(opened.body)?.[1] ?? '';
      const agreed = await h.app.inject({
        method: 'POST',
        url: '/sign-in',
        cookies: Object.fromEntries(opened.cookies.map((c) => [c.name, c.value])),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, token }).toString(),
      });
      expect(agreed.statusCode).toBe(303);
      const session = agreed.cookies.find((c) => c.name === 'desk_session');
      expect(session?.httpOnly).toBe(true);
      expect(session?.secure ?? false).toBe(secure);
      expect(agreed.headers['strict-transport-security'] !== undefined).toBe(secure);
    } finally {
      await h.close();
    }
  });
});
