import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { PG_URL, postgresStore, reopenStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

// A PostgreSQL server that stops answering without closing anything (frozen, or a network path
// that swallows packets) answers as one that cannot be reached, once a statement's deadline
// has passed: 503 unavailable, not a request held for ever. The deadline is short here so the
// test need not wait 30 s.

const LIMIT_MS = 500;

describe.skipIf(!PG_URL)('requests while the PostgreSQL server does not answer', () => {
  let made: TestStore;
  let through: TestStore;
  let proxy: TcpProxy;
  let h: Harness;
  let key: string;

  beforeAll(async () => {
    made = await postgresStore();
    key = (await makeDesk(made.db)).key;
    proxy = await tcpProxy(made.target);
    const opts = { statementTimeoutMs: LIMIT_MS, connectTimeoutMs: LIMIT_MS };
    through = { ...(await reopenStore(proxy.url, opts)), target: proxy.url };
    h = await harness(through);
  });
  afterAll(async () => {
    proxy.restore();
    await h.close();
    await through.close();
    await proxy.close();
    await made.close();
  });

  it('answers 503 unavailable within the deadline, on the API and the screen, then 200 once it answers again', async () => {
    expect((await h.call('GET', '/api/v1/me', { key })).statusCode).toBe(200);
    proxy.pause();
    for (const url of ['/api/v1/me', '/api/v1/work']) {
      const t0 = performance.now();
      const silent = await h.call('GET', url, { key });
      expect(performance.now() - t0).toBeLessThan(LIMIT_MS + 2000);
      expect(silent.statusCode).toBe(503);
      expect(silent.headers['retry-after']).toBe('1');
      expect(silent.json()).toEqual({
        error: { code: 'unavailable', message: 'The database cannot be reached; try again in a moment.' },
      });
    }
    const page = await h.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(503);
    expect(page.body).toContain('The database cannot be reached; try again in a moment.');
    proxy.restore();
    expect((await h.call('GET', '/api/v1/me', { key })).statusCode).toBe(200);
  });
});
