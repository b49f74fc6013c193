import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeArrangement, makeDesk, makeWork } from '../helpers/factories.ts';
import { deleteDesk } from '../../src/domain/desks/manage.ts';

// One suite over every keyed route of the contract: no key, a bad key, a deleted desk,
// and another desk's row.

const ROUTES: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; rowScoped?: 'work' | 'arrangement' }> = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/me' },
  { method: 'GET', path: '/desk' },
  { method: 'GET', path: '/work' },
  { method: 'GET', path: '/work/{id}', rowScoped: 'work' },
  { method: 'POST', path: '/work/{id}/complete', body: {}, rowScoped: 'work' },
  { method: 'POST', path: '/work/{id}/snooze', body: { days: 2 }, rowScoped: 'work' },
  { method: 'POST', path: '/work/{id}/draft', body: {}, rowScoped: 'work' },
  { method: 'POST', path: '/work/{id}/run', body: {}, rowScoped: 'work' },
  { method: 'POST', path: '/arrangements/{id}/notes', body: { body: 'hello' }, rowScoped: 'arrangement' },
  { method: 'GET', path: '/arrangements' },
  { method: 'GET', path: '/units' },
  { method: 'GET', path: '/connections' },
  { method: 'GET', path: '/domains' },
  { method: 'GET', path: '/permissions' },
  { method: 'GET', path: '/watches' },
  { method: 'GET', path: '/activity' },
  { method: 'GET', path: '/events' },
  { method: 'POST', path: '/chat', body: { text: 'what is overdue?' } },
];

describe.each(DIALECTS)('security on every route ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let mine: Awaited<ReturnType<typeof makeDesk>>;
  let gone: Awaited<ReturnType<typeof makeDesk>>;
  let theirWork: number;
  let theirArrangement: number;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    mine = await makeDesk(store.db, { grants: ['reach_out', 'chase', 'file', 'commit'] });
    const theirs = await makeDesk(store.db);
    theirWork = (
      await makeWork(store.db, theirs.desk.id, { title: 'Theirs', class: 'chase', contact_email: 'x@example.test' })
    ).id;
    theirArrangement = (await makeArrangement(store.db, theirs.desk.id, 'Their lease')).id;
    gone = await makeDesk(store.db);
    await deleteDesk(store.db, gone.desk.id);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('the description lists every route of the contract', async () => {
    const res = await h.call('GET', '/api/v1/openapi.json');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const doc = res.json();
    const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const expected = ['GET /openapi.json', ...ROUTES.map((r) => `${r.method} ${r.path}`)];
    expect(listed.sort()).toEqual(expected.sort());
  });

  for (const route of ROUTES) {
    const url = (id: number) => `/api/v1${route.path.replace('{id}', String(id))}`;
    const send = (headers: Record<string, string>, id = 1) =>
      h.call(route.method, url(id), { headers, ...(route.method === 'POST' ? { body: route.body } : {}) });

    it(`${route.method} ${route.path}: no key → 401 unauthorized`, async () => {
      const res = await send({});
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    });

    it(`${route.method} ${route.path}: unknown key → 401 unauthorized`, async () => {
      const res = await send({ authorization: `Bearer desk_${'Z'.repeat(40)}` });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    });

    it(`${route.method} ${route.path}: deleted desk → 403 no_desk`, async () => {
      const res = await send({ authorization: `Bearer ${gone.key}` });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('no_desk');
    });

    it(`${route.method} ${route.path}: a keyed answer is never cached and never sniffed`, async () => {
      for (const headers of [{}, { authorization: `Bearer ${mine.key}` }] as Array<Record<string, string>>) {
        const res = await send(headers);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    if (route.rowScoped) {
      it(`${route.method} ${route.path}: another desk's row → 404 not_found`, async () => {
        const id = route.rowScoped === 'work' ? theirWork : theirArrangement;
        const res = await send({ authorization: `Bearer ${mine.key}` }, id);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
        expect(res.json().error.message).toContain(route.rowScoped === 'work' ? 'work item' : 'arrangement');
      });
    }
  }
});
