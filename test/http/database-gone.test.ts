import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { PG_URL, postgresStore, reopenStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

// A PostgreSQL server that cannot be reached (stopped, restarting, a network cut) is a wait
// the client can retry, not a fault at the desk end: 503 unavailable with Retry-After, and
// the same server answers again once the database is back, with no restart. One that stops
// answering without closing anything (frozen, or a network path that swallows packets) answers
// the same once a statement's deadline has passed, rather than holding the request for ever;
// the deadline is short here so the test need not wait 30 s.

const UNREACHABLE = 'The database cannot be reached; try again in a moment.';
const LIMIT_MS = 500;

/** A desk's server reaching its PostgreSQL database through a proxy the test can cut or pause. */
function throughProxy(
  opts: { statementTimeoutMs?: number; connectTimeoutMs?: number } = {},
  config: Parameters<typeof harness>[1] = {},
) {
  const t = {} as { made: TestStore; through: TestStore; proxy: TcpProxy; h: Harness; key: string };
  beforeAll(async () => {
    t.made = await postgresStore();
    t.key = (await makeDesk(t.made.db)).key;
    t.proxy = await tcpProxy(t.made.target);
    t.through = { ...(await reopenStore(t.proxy.url, opts)), target: t.proxy.url };
    t.h = await harness(t.through, config);
  });
  afterAll(async () => {
    t.proxy?.restore();
    await t.h?.close();
    await t.through?.close();
    await t.proxy?.close();
    await t.made?.close();
  });
  return t;
}

/** The API's reads and the screen, each answered 503 within `withinMs`; then 200 once the server is back. */
async function unreachableUntilRestored(t: ReturnType<typeof throughProxy>, withinMs: number): Promise<void> {
  for (const url of ['/api/v1/me', '/api/v1/work']) {
    const t0 = performance.now();
    const res = await t.h.call('GET', url, { key: t.key });
    expect(performance.now() - t0, url).toBeLessThan(withinMs);
    expect(res.statusCode, url).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ error: { code: 'unavailable', message: UNREACHABLE } });
  }
  const page = await t.h.app.inject({ method: 'GET', url: '/' });
  expect(page.statusCode).toBe(503);
  expect(page.body).toContain(UNREACHABLE);
  t.proxy.restore();
  expect((await t.h.call('GET', '/api/v1/me', { key: t.key })).statusCode).toBe(200);
}

describe.skipIf(!PG_URL)('requests while the PostgreSQL server cannot be reached', () => {
  const t = throughProxy();

  it('answers 503 unavailable with Retry-After, on the API and the screen, then 200 once it is back', async () => {
    expect((await t.h.call('GET', '/api/v1/me', { key: t.key })).statusCode).toBe(200);
    t.proxy.cut();
    await unreachableUntilRestored(t, Number.POSITIVE_INFINITY);
  });
});

describe.skipIf(!PG_URL)('requests while the PostgreSQL server does not answer', () => {
  const t = throughProxy({ statementTimeoutMs: LIMIT_MS, connectTimeoutMs: LIMIT_MS });

  it('answers 503 unavailable within the deadline, on the API and the screen, then 200 once it answers again', async () => {
    expect((await t.h.call('GET', '/api/v1/me', { key: t.key })).statusCode).toBe(200);
    t.proxy.pause();
    await unreachableUntilRestored(t, LIMIT_MS + 2000);
  });
});

describe.skipIf(!PG_URL)('a key presented while the PostgreSQL server cannot be reached', () => {
  const t = throughProxy({}, { config: { refusedKeysPerMinute: 3 } });

  it('is not counted as a refused key: every request is told to try again soon, none to wait a minute', async () => {
    t.proxy.cut();
    for (let i = 0; i < 6; i++) {
      const res = await t.h.call('GET', '/api/v1/me', { key: t.key });
      expect(res.statusCode, `request ${i + 1}`).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
    }
    t.proxy.restore();
    expect((await t.h.call('GET', '/api/v1/me', { key: t.key })).statusCode).toBe(200);
    // A key that is refused is still counted in its address's small bucket.
    const refused = [];
    for (let i = 0; i < 4; i++) refused.push((await t.h.call('GET', '/api/v1/me', { key: 'desk_nope' })).statusCode);
    expect(refused).toEqual([401, 401, 401, 429]);
  });
});
