import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';

// A connection answered before the body it carried was read closes without throwing the
// answer away: a client still sending, and slow to read, gets the whole answer.

describe('a connection closed with a body still coming', () => {
  let store: TestStore;
  let h: Harness;
  let port: number;
  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  /**
   * Sends a GET with a body of `size` bytes, reads nothing for a moment (as a busy client
   * would not), then reads until the server closes: what arrived, and any fault on the way.
   */
  function slowReader(size: number): Promise<{ text: string; fault: string | null }> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let fault: string | null = null;
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.pause();
        socket.write(
          `GET /api/v1/openapi.json HTTP/1.1\r\nHost: desk\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
        );
        socket.write(Buffer.alloc(size, 'x'));
        setTimeout(() => socket.resume(), 300);
      });
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', (err: NodeJS.ErrnoException) => (fault = err.code ?? err.message));
      socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), fault }));
    });
  }

  it('delivers the whole answer, then closes', async () => {
    const expected = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body;
    for (let i = 0; i < 3; i++) {
      const { text, fault } = await slowReader(4 * 1024 * 1024);
      expect(fault).toBeNull();
      const [head = '', body = ''] = text.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head.toLowerCase()).toContain('connection: close');
      expect(body).toBe(expected);
    }
  });

  it('gives up on a client that goes on sending after its answer, rather than read it for ever', async () => {
    const closed = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      // Keeping its own side open when the server closes its own, as a client may.
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
        socket.write(
          'GET /api/v1/openapi.json HTTP/1.1\r\nHost: desk\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n',
        );
        // A trickle that would last far longer than the test: only the server can end it.
        const drip = setInterval(() => socket.writable && socket.write('x'.repeat(1000)), 50);
        socket.on('close', () => clearInterval(drip));
      });
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    expect(closed).toMatch(/^HTTP\/1\.1 200 /);
  });
});
