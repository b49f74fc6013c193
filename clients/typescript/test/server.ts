import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Config } from '../../../src/config.ts';
import type { AppOptions } from '../../../src/http/app.ts';
import { harness, type Harness } from '../../../test/helpers/app.ts';
import type { TestStore } from '../../../test/helpers/db.ts';

// The real Desk app on a real loopback port, and a proxy the tests put between it and the client
// to lose or fail answers on purpose.

export interface Served {
  h: Harness;
  /** The API root a client is given: http://127.0.0.1:PORT/api/v1 */
  baseUrl: string;
  close(): Promise<void>;
}

export async function serve(store: TestStore, config: Partial<Config> = {}, app: AppOptions = {}): Promise<Served> {
  const h = await harness(store, { config, app });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  return { h, baseUrl: `http://127.0.0.1:${port}/api/v1`, close: () => h.close() };
}

/** What the proxy does with one request: pass it through, or lose or fail its answer. */
export type Fate =
  | 'pass'
  /** Forward it, let the desk answer in full, then cut the client's connection instead of answering. */
  | 'drop-answer'
  /** Forward it and never answer the client; its own time-out has to end the wait. */
  | 'hold-answer'
  /** Answer 503 without forwarding, as a load balancer in trouble would. */
  | 'fail-503'
  /** Forward it, let the desk answer in full, then answer 504 as a gateway that gave up would. */
  | 'gateway-504';

export interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | null;
  fate: Fate;
  /** The desk's status for this request, when it was forwarded and answered. */
  status?: number;
  replayed?: boolean;
}

export interface Proxy {
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

export async function startProxy(
  upstream: string,
  decide: (req: http.IncomingMessage, index: number) => Fate,
): Promise<Proxy> {
  const target = new URL(upstream);
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const fate = decide(req, seen.length);
    const entry: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
      fate,
    };
    seen.push(entry);
    if (fate === 'fail-503') {
      req.resume();
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream unavailable');
      return;
    }
    const out = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          entry.status = answer.statusCode;
          entry.replayed = answer.headers['idempotent-replayed'] === 'true';
          if (fate === 'drop-answer') return req.socket.destroy();
          if (fate === 'hold-answer') return;
          if (fate === 'gateway-504')
            return res.writeHead(504, { 'content-type': 'text/plain' }).end('gateway timeout');
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks));
        });
      },
    );
    out.on('error', () => req.socket.destroy());
    req.pipe(out);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
