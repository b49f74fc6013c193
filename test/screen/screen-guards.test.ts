import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../../src/domain/owner/sign-in.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

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

  /** The cookies a sign-in link sets, as a Cookie header's pairs. */
  async function signIn(deskId: string, cookies: Record<string, string> = {}): Promise<Record<string, string>> {
    const { token } = await createSignInLink(store.db, deskId, h.clock.now());
    const res = await h.app.inject({ method: 'GET', url: `/sign-in?token=${token}`, cookies });
    expect(res.statusCode).toBe(303);
    return { ...cookies, ...Object.fromEntries(res.cookies.map((c) => [c.name, c.value])) };
  }

  /** A page's CSRF token, and the cookies after drawing it. */
  async function formOf(cookies: Record<string, string>): Promise<{ csrf: string; cookies: Record<string, string> }> {
    const res = await h.app.inject({ method: 'GET', url: '/keys', cookies, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
    if (!csrf) throw new Error('no CSRF token on /keys');
    return { csrf, cookies: { ...cookies, ...Object.fromEntries(res.cookies.map((c) => [c.name, c.value])) } };
  }

  const page = (cookies: Record<string, string>) =>
    h.app.inject({ method: 'GET', url: '/keys', cookies, headers: { accept: 'text/html' } });

  it("a run page for a run this server is not following answers 404, and points to the row's timeline", async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { title: 'Pay the rates' });
    const cookies = await signIn(d.desk.id);
    const res = await h.app.inject({ method: 'GET', url: `/work/${row.id}/runs/no-such-run`, cookies });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('This run is no longer followed here; what came of it is on the row&#39;s timeline.');
    expect(res.body).toContain(`<a href="/work/${row.id}">Back to the row</a>`);
  });

  it("a link for one desk opened while signed in to another ends the first desk's session", async () => {
    const a = await makeDesk(store.db);
    const b = await makeDesk(store.db);
    const first = await signIn(a.desk.id);
    const second = await signIn(b.desk.id, first);
    expect(second.desk_session).not.toBe(first.desk_session);
    expect((await page(second)).body).toContain(b.desk.name);
    // The cookie the browser no longer holds opens nothing.
    expect((await page({ desk_session: first.desk_session! })).statusCode).toBe(303);
  });

  it("refuses a form sent with another session's CSRF token, even beside that session's CSRF cookie", async () => {
    const a = await makeDesk(store.db);
    const b = await makeDesk(store.db);
    const victim = await formOf(await signIn(a.desk.id));
    const other = await formOf(await signIn(b.desk.id));
    const post = (cookies: Record<string, string>, csrf: string) =>
      h.app.inject({
        method: 'POST',
        url: '/keys',
        cookies,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, name: 'planted', expires: '' }).toString(),
      });
    // The other session's token and secret cookie, planted beside the victim's session.
    const planted = await post({ desk_session: victim.cookies.desk_session!, _csrf: other.cookies._csrf! }, other.csrf);
    expect(planted.statusCode).toBe(403);
    // A session's own token still works.
    expect((await post(victim.cookies, victim.csrf)).statusCode).toBe(200);
  });
});
