import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gate, openGate } from './gate.ts';

/** A server that answers each connection with what it was sent, upper-cased. */
let echo: Server;
let echoPort: number;
let gate: Gate;
let gatePort: number;

const resolve = async (host: string) => {
  if (host === 'office.test') return [{ address: '127.0.0.1' }];
  if (host === 'metadata.test') return [{ address: '203.0.113.9' }, { address: '169.254.169.254' }];
  throw new Error(`${host} does not resolve`);
};

beforeAll(async () => {
  echo = createServer((s) => s.on('data', (d) => s.write(d.toString().toUpperCase())));
  // Both loopbacks, 127.0.0.1 and ::1.
  echo.listen(0, '::');
  await once(echo, 'listening');
  echoPort = (echo.address() as { port: number }).port;
  gate = await openGate({ policy: 'allow', resolve });
  gatePort = Number(/:(\d+)$/.exec(gate.args[0]!)![1]);
});
afterAll(() => {
  gate.close();
  echo.close();
});

/** Sends `bytes` to the gate a piece at a time and gathers what comes back until it has `want` bytes or closes. */
async function talk(pieces: Buffer[], want: number): Promise<{ got: Buffer; socket: Socket }> {
  const socket = connect(gatePort, '127.0.0.1');
  await once(socket, 'connect');
  let got = Buffer.alloc(0);
  const done = new Promise<void>((resolve) => {
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.length >= want) resolve();
    });
    socket.on('close', () => resolve());
  });
  for (const p of pieces) {
    socket.write(p);
    await new Promise((r) => setTimeout(r, 5));
  }
  await done;
  return { got, socket };
}

const greeting = Buffer.from([5, 1, 0]);
const byName = (name: string, port: number, cmd = 1) =>
  Buffer.concat([Buffer.from([5, cmd, 0, 3, name.length]), Buffer.from(name), Buffer.from([port >> 8, port & 255])]);
const byIpv4 = (ip: string, port: number) =>
  Buffer.from([5, 1, 0, 1, ...ip.split('.').map(Number), port >> 8, port & 255]);

describe('the gate a run browses through', () => {
  it('connects a name to the address it resolved and checked, passing on what came with the request', async () => {
    const request = Buffer.concat([greeting, byName('office.test', echoPort), Buffer.from('hello')]);
    // One byte at a time: the request is read whole however it arrives.
    const pieces = [...request].map((b) => Buffer.from([b]));
    const { got, socket } = await talk(pieces, 2 + 10 + 5);
    socket.destroy();
    expect([...got.subarray(0, 12)]).toEqual([5, 0, 5, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(got.subarray(12).toString()).toBe('HELLO');
  });

  it('refuses a name when any address it stands for is refused, and says which', async () => {
    const { got } = await talk([greeting, byName('metadata.test', 80)], 12);
    expect([...got]).toEqual([5, 0, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(gate.failure('metadata.test')).toEqual({ refused: { address: '169.254.169.254', why: 'link-local' } });
    expect(gate.failure('office.test')).toBeUndefined();
  });

  it('refuses a link-local address written as one, in IPv4 or inside IPv6', async () => {
    expect((await talk([greeting, byIpv4('169.254.169.254', 80)], 12)).got[3]).toBe(2);
    const mapped = Buffer.from([5, 1, 0, 4, ...Array(10).fill(0), 0xff, 0xff, 169, 254, 169, 254, 0, 80]);
    expect((await talk([greeting, mapped], 12)).got[3]).toBe(2);
    // Named as a URL names it.
    expect(gate.failure('[::ffff:a9fe:a9fe]')).toEqual({
      refused: { address: '0:0:0:0:0:ffff:a9fe:a9fe', why: 'link-local' },
    });
    const loopback6 = Buffer.from([5, 1, 0, 4, ...Array(15).fill(0), 1, echoPort >> 8, echoPort & 255]);
    const { got, socket } = await talk([greeting, loopback6, Buffer.from('six')], 15);
    socket.destroy();
    expect(got[3]).toBe(0);
    expect(got.subarray(12).toString()).toBe('SIX');
  });

  it('answers a name that does not resolve as unreachable, and a port nobody listens on as refused', async () => {
    expect((await talk([greeting, byName('nowhere.test', 80)], 12)).got[3]).toBe(4);
    expect(gate.failure('nowhere.test')).toEqual({
      unreachable: 'nowhere.test was not found: no address is known by that name',
    });
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as { port: number }).port;
    closed.close();
    await once(closed, 'close');
    expect((await talk([greeting, byName('office.test', port)], 12)).got[3]).toBe(5);
    expect(gate.failure('office.test')).toEqual({
      unreachable: `nothing answered at office.test (127.0.0.1) on port ${port}: the connection was refused`,
    });
    // A connection that goes through clears what the last one said.
    const { socket } = await talk([greeting, byName('office.test', echoPort)], 12);
    socket.destroy();
    expect(gate.failure('office.test')).toBeUndefined();
  });

  it('takes no command but CONNECT, and no client that offers no unauthenticated way in', async () => {
    expect((await talk([greeting, byName('office.test', echoPort, 2)], 12)).got[3]).toBe(7);
    expect([...(await talk([Buffer.from([5, 1, 2])], 2)).got]).toEqual([5, 0xff]);
  });
});
