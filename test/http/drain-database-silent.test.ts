import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, postgresStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { saidLines, startServerProcess } from '../helpers/process.ts';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

// SIGTERM while the PostgreSQL server has stopped answering (a network cut that drops packets,
// a server frozen): a request and the store's connections wait on it for ever, and the stop
// must not. The process says what it gave up waiting for and exits 1.

describe.skipIf(!PG_URL)('stopping while the database does not answer', () => {
  let made: TestStore;
  let proxy: TcpProxy;

  beforeAll(async () => {
    made = await postgresStore();
    proxy = await tcpProxy(made.target);
  });
  afterAll(async () => {
    await proxy?.close();
    await made?.close();
  });

  it('still ends, exits 1 and logs that it stopped without closing the database', async () => {
    const d = await makeDesk(made.db);
    const server = await startServerProcess(proxy.url, {
      DESK_DRAIN_TIMEOUT: '1s',
      DESK_MAIL_TIMEOUT: '1s',
      DESK_LOG_FORMAT: 'json',
    });
    const auth = { authorization: `Bearer ${d.key}` };
    expect((await fetch(`${server.url}/api/v1/me`, { headers: auth })).status).toBe(200);
    proxy.pause();
    const held = fetch(`${server.url}/api/v1/me`, { headers: auth }).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 200));
    const code = await server.stop();
    expect(code).toBe(1);
    expect(await held).toBeInstanceOf(Error);
    expect(server.output()).toContain('Stopped without closing the database: it did not answer');
    // It says it stopping, and not that it stopped.
    expect(server.output()).toContain('Stopping: finishing requests in flight...');
    expect(saidLines(server.output())).toContain('Stopping: finishing requests in flight...');
    expect(saidLines(server.output())).not.toContain('Stopped.');
  }, 120_000);
});
