import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// A request that reaches the server after its close began, on a connection that was busy then
// (here, one pipelined behind a request whose body was still coming), is answered in the
// envelope as every request of a stopping server is (P-secrets-6), never the framework's own 503.

describe('a request that arrives while the server closes', () => {
  let store: TestStore | undefined;
  afterAll(async () => {
    await store?.close();
  });

  it('is told the desk is stopping, in the envelope, with when to try again', async () => {
    store = await sqliteStore();
    let draining = false;
    const h = await harness(store, { app: { draining: () => draining } });
    const { key } = await makeDesk(store.db);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (c) => (text += c));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    const arrived = new Promise<void>((resolve) => h.app.server.once('request', () => resolve()));
    socket.write(
      `POST /api/v1/work/999/snooze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`,
    );
    await arrived;
    draining = true;
    const closed = h.app.close();
    // The close has begun and marked itself before the next request comes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('{}GET /api/v1/me HTTP/1.1\r\nHost: x\r\n\r\n');
    await ended;
    await closed;
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 404 /);
    const last = answers[1]!;
    expect(last).toMatch(/^HTTP\/1\.1 503 /);
    expect(last.toLowerCase()).toContain('retry-after: 5');
    expect(last.slice(last.indexOf('\r\n\r\n') + 4)).toBe(
      JSON.stringify({ error: { code: 'unavailable', message: 'The desk is stopping; try again in a moment.' } }),
    );
  });
});
