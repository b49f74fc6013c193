import { connect, createServer, isIP, type Socket } from 'node:net';
import { destination, type PrivateAddresses, type Refused, type Resolve } from './addresses.ts';

// A run's browser reaches the web only through this gate: a SOCKS5 proxy on loopback, one for
// each run. The browser hands it every host by name; the gate resolves the name, checks each
// address it stands for, and connects to the very address it checked. Checked in the browser's
// request hook instead, a name could stand for a public address when checked and for a private
// one when the browser looked it up again to connect (DNS rebinding). The gate carries TCP
// alone: WebRTC, which sends UDP from the browser itself, is taken out of every page of a run
// (runner.ts).

export interface Gate {
  /** What the browser is started with so that all it opens goes through the gate, loopback too. */
  readonly args: string[];
  /**
   * Why the gate's last connection to a host, named as a URL names it, did not go through:
   * refused by where a run may go, or not reachable; undefined when it went through.
   */
  failure(hostname: string): GateFailure | undefined;
  close(): void;
}

export type GateFailure = { refused: Refused } | { unreachable: string };

export interface GateOptions {
  policy: PrivateAddresses;
  resolve?: Resolve;
}

/** A host as a URL's hostname writes it: an IPv6 address bracketed and shortened. */
const asUrlHost = (host: string): string => (isIP(host) === 6 ? new URL(`http://[${host}]/`).hostname : host);

const VERSION = 5;
const NO_AUTH = 0;
const CONNECT = 1;
const REPLY = { ok: 0, notAllowed: 2, hostUnreachable: 4, connectionRefused: 5, commandNotSupported: 7 };

interface Target {
  host: string;
  port: number;
  /** Bytes of the request, so what follows it is passed on. */
  length: number;
}

/** The CONNECT request at the start of `buf`; 'more' when it has not all come yet, null when it is not one. */
function readRequest(buf: Buffer): Target | 'more' | null {
  if (buf.length < 5) return 'more';
  if (buf[0] !== VERSION || buf[1] !== CONNECT) return null;
  const type = buf[3];
  let host: string;
  let at: number;
  if (type === 1) {
    if (buf.length < 10) return 'more';
    host = [...buf.subarray(4, 8)].join('.');
    at = 8;
  } else if (type === 3) {
    const n = buf[4]!;
    if (buf.length < 5 + n + 2) return 'more';
    host = buf.subarray(5, 5 + n).toString('latin1');
    at = 5 + n;
  } else if (type === 4) {
    if (buf.length < 22) return 'more';
    const groups: string[] = [];
    for (let i = 4; i < 20; i += 2) groups.push(buf.readUInt16BE(i).toString(16));
    host = groups.join(':');
    at = 20;
  } else {
    return null;
  }
  return { host, port: buf.readUInt16BE(at), length: at + 2 };
}

/** The answer to a request: the bound address is left as zeros, which browsers ignore. */
const answer = (code: number): Buffer => Buffer.from([VERSION, code, 0, 1, 0, 0, 0, 0, 0, 0]);

export async function openGate(opts: GateOptions): Promise<Gate> {
  const sockets = new Set<Socket>();
  const failures = new Map<string, GateFailure>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };

  const pass = async (client: Socket, target: Target, rest: Buffer): Promise<void> => {
    const found = await destination(target.host, opts.policy, opts.resolve);
    const named = asUrlHost(target.host);
    if (client.destroyed) return;
    if (found === null) {
      failures.set(named, { unreachable: `${named} was not found: no address is known by that name` });
      return void client.end(answer(REPLY.hostUnreachable));
    }
    if ('refused' in found) {
      failures.set(named, { refused: found.refused });
      return void client.end(answer(REPLY.notAllowed));
    }
    const upstream = connect({ host: found.address, port: target.port });
    track(upstream);
    let connected = false;
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (connected) return void client.destroy();
      const where = found.address === target.host ? named : `${named} (${found.address})`;
      const why = err.code === 'ECONNREFUSED' ? 'the connection was refused' : (err.code ?? err.message);
      failures.set(named, { unreachable: `nothing answered at ${where} on port ${target.port}: ${why}` });
      client.end(answer(REPLY.connectionRefused));
    });
    client.once('close', () => upstream.destroy());
    upstream.once('connect', () => {
      connected = true;
      failures.delete(named);
      client.write(answer(REPLY.ok));
      if (rest.length) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  };

  const server = createServer((client) => {
    track(client);
    client.on('error', () => client.destroy());
    let buf = Buffer.alloc(0);
    let greeted = false;
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      if (!greeted) {
        if (buf.length < 2 || buf.length < 2 + buf[1]!) return;
        const methods = buf.subarray(2, 2 + buf[1]!);
        if (buf[0] !== VERSION || !methods.includes(NO_AUTH)) return void client.end(Buffer.from([VERSION, 0xff]));
        buf = buf.subarray(2 + buf[1]!);
        greeted = true;
        client.write(Buffer.from([VERSION, NO_AUTH]));
      }
      const target = readRequest(buf);
      if (target === 'more') return;
      client.off('data', onData);
      client.pause();
      if (target === null) return void client.end(answer(REPLY.commandNotSupported));
      pass(client, target, buf.subarray(target.length)).catch(() => client.destroy());
    };
    client.on('data', onData);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    args: [
      `--proxy-server=socks5://127.0.0.1:${port}`,
      // Chromium goes straight to loopback addresses unless told otherwise; they pass the gate too.
      '--proxy-bypass-list=<-loopback>',
    ],
    failure: (hostname) => failures.get(hostname),
    close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
