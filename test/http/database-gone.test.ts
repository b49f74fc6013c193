import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { PG_URL, postgresStore, reopenStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

// A PostgreSQL server that cannot be reached (stopped, restarting, a network cut) is a wait
// the client can retry, not a fault at the desk end: 503 unavailable with Retry-After, and
// the same server answers again once the database is back, with no restart.

describe.skipIf(!PG_URL)('requests while the PostgreSQL server cannot be reached', () => {
  let made: TestStore;
  let through: TestStore;
  let proxy: TcpProxy;
  let h: Harness;
  let key: string;

  beforeAll(async () => {
    made = await postgresStore();
    key = (await makeDesk(made.db)).key;
    proxy = await tcpProxy(made.target);
    through = { ...(await reopenStore(proxy.url)), target: proxy.url };
    h = await harness(through);
  });
  afterAll(async () => {
    await h.close();
    await through.close();
    await proxy.close();
    await made.close();
  });

  it('answers 503 unavailable with Retry-After, on the API and the screen, then 200 once it is back', async () => {
    expect((await h.call('GET', '/api/v1/me', { key })).statusCode).toBe(200);
    proxy.cut();
    for (const url of ['/api/v1/me', '/api/v1/work']) {
      const gone = await h.call('GET', url, { key });
      expect(gone.statusCode).toBe(503);
      expect(gone.headers['retry-after']).toBe('1');
      expect(gone.json()).toEqual({
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
