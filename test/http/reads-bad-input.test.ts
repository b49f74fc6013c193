import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// Whatever arrives in a read's query or path, the answer is the contract's, never a 500.

const PATHS = [
  '/work',
  '/work/1',
  '/arrangements',
  '/desk',
  '/units',
  '/connections',
  '/domains',
  '/permissions',
  '/watches',
  '/activity',
  '/events',
];
const QUERIES = [
  'limit=abc',
  'limit=-1',
  'limit=1.5',
  'limit=99999999999999999999',
  'limit=1e400',
  'limit=0x10',
  'limit=%00',
  'limit=a&limit=b',
  'limit[]=1',
  'cursor=%ff%fe',
  'cursor=a&cursor=b',
  `cursor=${'A'.repeat(10_000)}`,
  'kind=%00',
  'kind[x]=1',
  'arrangement=-0',
  'arrangement=%20',
  'type=%00',
  'type=a&type=b',
  'status=open%00',
  'foo=bar',
  '%zz',
  '&&&',
  'token=',
];

describe.each(DIALECTS)('bad input on the reads ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const d = await makeDesk(store.db);
    key = d.key;
    await makeWork(store.db, d.desk.id, { title: 'one' });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  for (const path of PATHS) {
    it(`GET ${path} answers every odd query with 200, 400 or 404`, async () => {
      for (const q of QUERIES) {
        const res = await h.call('GET', `/api/v1${path}?${q}`, { key });
        expect([200, 400, 404], `${path}?${q.slice(0, 40)} → ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(
          res.statusCode,
        );
        if (res.statusCode !== 200) expect(res.json().error.code).toMatch(/^(bad_request|not_found)$/);
      }
    });
  }

  it('odd ids on /work/{id} are 404, never 400 or 500', async () => {
    const long = '7'.repeat(300);
    for (const id of ['abc', '1.5', '-1', '99999999999999999999', '%00', '%ff', 'NaN', 'Infinity', '1%20', '١', long]) {
      const res = await h.call('GET', `/api/v1/work/${id}`, { key });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.code, id).toBe('not_found');
    }
    // Past the router's longest path part too, on a write: still 404, nothing else.
    const res = await h.call('POST', `/api/v1/work/${long}/draft`, { key });
    expect(res.statusCode).toBe(404);
  });

  it('an odd id is looked for only once the key is known, and carries the headers of every answer', async () => {
    for (const id of ['%ff', '7'.repeat(300)]) {
      const res = await h.call('GET', `/api/v1/work/${id}`, { key });
      expect(res.headers['x-content-type-options'], id).toBe('nosniff');
      expect(res.headers['x-request-id'], id).toBeTruthy();
    }
    const keyless = await h.call('GET', `/api/v1/work/${'7'.repeat(300)}`);
    expect(keyless.statusCode).toBe(401);
    expect(keyless.json().error.code).toBe('unauthorized');
  });
});
