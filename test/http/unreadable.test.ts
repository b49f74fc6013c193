import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { connectMailbox } from './writes-helpers.ts';

// Requests Node's HTTP parser refuses before any route sees them still get the contract's
// envelope (P-headers-3). They never reach the store, so one store is enough.

describe('requests refused before any route', () => {
  let store: TestStore;
  let h: Harness;
  let port: number;
  let key: string;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
    key = (await makeDesk(store.db)).key;
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  /** Writes raw bytes on a fresh connection and reads everything until the server closes it. */
  function raw(request: Buffer | string): Promise<{ status: number; headers: string; body: string }> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', body = ''] = text.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head, body });
      });
    });
  }

  const envelope = (body: string) => JSON.parse(body) as { error: { code: string; message: string } };

  it("bytes after a write's body: the write is answered first, then the bytes are refused by what they are", async () => {
    const made = await makeDesk(store.db, { name: 'Pipelined Bakery' });
    const row = await makeWork(store.db, made.desk.id, { title: 'Order flour' });
    const body = JSON.stringify({ days: 2 });
    const write = `POST /api/v1/work/${row.id}/snooze HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${made.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    for (const after of ['junk', 'BREW /coffee HTTP/1.1\r\nHost: desk\r\n\r\n']) {
      const text = await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        const socket = net.connect(port, '127.0.0.1', () => socket.write(write + after));
        socket.on('data', (c) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      const answers = text.split(/(?=HTTP\/1\.1 )/);
      expect(answers, text).toHaveLength(2);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 404 /);
      const refused = envelope(answers[1]!.split('\r\n\r\n')[1]!);
      expect(refused.error.message).toBe(after === 'junk' ? 'No route takes that method.' : 'No route BREW /coffee.');
    }
  });

  it('a write sent by a client that then closes its side is answered, and so is one after a body refused on the same connection', async () => {
    const made = await makeDesk(store.db, { name: 'Half Closed Bakery' });
    const row = await makeWork(store.db, made.desk.id, { title: 'Order yeast' });
    const snooze = (days: number) => {
      const body = JSON.stringify({ days });
      return `POST /api/v1/work/${row.id}/snooze HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${made.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    };
    const alone = await raw(snooze(2));
    expect(alone.status).toBe(200);
    const bad = `POST /api/v1/work/${row.id}/snooze HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${made.key}\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{`;
    const both = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(port, '127.0.0.1', () => socket.end(bad + snooze(3)));
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const answers = both.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => Number(a.split(' ')[1]))).toEqual([400, 200]);
    const snoozes = await store.db
      .selectFrom('events')
      .select('id')
      .where('desk_id', '=', made.desk.id)
      .where('kind', '=', 'api_write')
      .execute();
    expect(snoozes).toHaveLength(2);
  });

  it('a request with no Host is a 400 bad_request in the envelope; an HTTP/1.0 one needs none', async () => {
    const res = await raw(`GET /api/v1/me HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers).toMatch(/^content-type: application\/json/im);
    expect(envelope(res.body).error).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/Host/) });
    expect((await raw(`GET /api/v1/me HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`)).status).toBe(200);
  });

  it('a body under a transfer coding other than chunked is refused by name, not read as its coded bytes', async () => {
    const made = await makeDesk(store.db, { name: 'Coded Bakery' });
    const row = await makeWork(store.db, made.desk.id, { title: 'Order salt' });
    const body = JSON.stringify({ days: 1 });
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const res = await raw(
      `POST /api/v1/work/${row.id}/snooze HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${made.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: br, chunked\r\n\r\n${chunked}`,
    );
    expect(res.status).toBe(400);
    expect(envelope(res.body).error.message).toBe(
      'The body is sent with Transfer-Encoding: br, chunked, which the desk does not read; send it unencoded.',
    );
    expect(
      (await store.db.selectFrom('work').select('due_date').where('id', '=', row.id).executeTakeFirstOrThrow())
        .due_date,
    ).toBe(row.due_date);
  });

  it('a path no route serves, with a body that is not JSON, is a 404 that no cache keeps', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/nope',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('headers over 16 KiB are a 400 bad_request in the envelope, naming the headers', async () => {
    const cursor = 'x'.repeat(20_000);
    const res = await raw(
      `GET /api/v1/work?cursor=${cursor} HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    expect(res.status).toBe(400);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
    expect(envelope(res.body).error.code).toBe('bad_request');
    expect(envelope(res.body).error.message).toMatch(/headers are larger than 16 KiB/);
  });

  it('a request the parser cannot read is told what in it was wrong', async () => {
    const cases: Array<[string, RegExp]> = [
      [
        'POST /api/v1/me HTTP/1.1\r\nHost: d\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
        /Content-Length is not readable/,
      ],
      ['POST /api/v1/me HTTP/1.1\r\nHost: d\r\nContent-Length: x\r\n\r\n', /Content-Length is not readable/],
      [
        'POST /api/v1/me HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: gzip\r\n\r\nabc',
        /Transfer-Encoding is not readable/,
      ],
      [
        'POST /api/v1/me HTTP/1.1\r\nHost: d\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        /chunked body is not readable/,
      ],
      ['GET /api/v1/me HTTP/1.2\r\nHost: d\r\n\r\n', /HTTP version/],
      // Taken by Node's parser, and answered as HTTP/1.1 before: refused by the desk itself.
      ['GET /api/v1/me HTTP/2.0\r\nHost: d\r\n\r\n', /HTTP version/],
      ['GET /api/v1/me HTTP/0.9\r\nHost: d\r\n\r\n', /HTTP version/],
      ['GET /sign-in HTTP/2.0\r\nHost: d\r\n\r\n', /HTTP version/],
      ['GET api/v1/me HTTP/1.1\r\nHost: d\r\n\r\n', /path is not readable/],
    ];
    for (const [request, said] of cases) {
      const res = await raw(request);
      expect(res.status, request).toBe(400);
      expect(envelope(res.body).error, request).toMatchObject({
        code: 'bad_request',
        message: expect.stringMatching(said),
      });
    }
  });

  it('a control byte in a header is a 400 bad_request in the envelope', async () => {
    const res = await raw(
      Buffer.concat([
        Buffer.from(`POST /api/v1/work/1/snooze HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\n`),
        Buffer.from('Idempotency-Key: a\x7fb\r\nContent-Length: 0\r\n\r\n', 'latin1'),
      ]),
    );
    expect(res.status).toBe(400);
    expect(envelope(res.body)).toEqual({
      error: { code: 'bad_request', message: expect.stringMatching(/not readable HTTP/) },
    });
  });

  it('a method HTTP has no name for is a route no one serves: 404 not_found, naming it', async () => {
    for (const method of ['BREW', 'get']) {
      const res = await raw(`${method} /api/v1/me?x=1 HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      expect(res.status, method).toBe(404);
      expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
      expect(envelope(res.body)).toEqual({ error: { code: 'not_found', message: `No route ${method} /api/v1/me.` } });
    }
  });

  it('CONNECT is a method no route serves: 404 not_found in the envelope, not a closed connection', async () => {
    const res = await raw(`CONNECT /api/v1/me HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(res.status).toBe(404);
    expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
    expect(envelope(res.body)).toEqual({ error: { code: 'not_found', message: 'No route CONNECT /api/v1/me.' } });
    const tunnel = await raw('CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n');
    expect(tunnel.status).toBe(404);
    expect(envelope(tunnel.body).error.message).toBe('No route CONNECT example.test:443.');
  });

  it('an Expect header other than 100-continue is a 400 bad_request in the envelope, naming it', async () => {
    const res = await raw(
      `POST /api/v1/work/1/snooze HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}`,
    );
    expect(res.status).toBe(400);
    expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
    expect(res.headers).toMatch(/connection: close/i);
    expect(envelope(res.body)).toEqual({
      error: {
        code: 'bad_request',
        message:
          'The desk cannot meet the expectation "foo" (Expect header); it understands only 100-continue. Send the request without it.',
      },
    });
  });

  it('Expect: 100-continue is met: the server says continue, then answers the request', async () => {
    const res = await raw(
      `GET /api/v1/me HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(100);
    expect(res.body).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('the server goes on answering after refusing them', async () => {
    const res = await raw(
      `GET /api/v1/me HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toContain('"data":');
  });
});

describe('a request that does not arrive in time', () => {
  let store: TestStore;
  let h: Harness;
  let port: number;

  beforeAll(async () => {
    store = await sqliteStore();
    // Five minutes in a server; a second here, so the test need not wait them out. The mail
    // server takes longer than that to answer a send.
    const slowMailer = {
      async send() {
        await new Promise((r) => setTimeout(r, 2500));
        return { accepted: true as const, messageId: null, response: '250 Taken' };
      },
    };
    h = await harness(store, { app: { requestTimeMs: 1000 }, engine: { mailer: slowMailer } });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  /**
   * Sends the start of a request, then the rest of its body a byte every 200 ms (each well inside
   * any idle limit, the whole never in time), and reads everything until the server closes.
   */
  function dripped(start: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let drip: NodeJS.Timeout | undefined;
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(start);
        drip = setInterval(() => socket.writable && socket.write(' '), 200);
      });
      socket.on('data', (c) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
  }

  it('a body sent a byte at a time is cut off with the envelope, and the connection freed', async () => {
    const { key } = await makeDesk(store.db);
    const started = Date.now();
    const text = await dripped(
      `POST /api/v1/work HTTP/1.1\r\nHost: desk\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`,
    );
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body)).toEqual({
      error: {
        code: 'bad_request',
        message:
          'The request did not arrive in time: its headers must come within a minute, and the whole of it within five.',
      },
    });
    // Cut off by the limit, not left open until the test's own time ran out.
    expect(Date.now() - started).toBeLessThan(20_000);
    const me = await fetch(`http://127.0.0.1:${port}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
  });

  it('a request answered before its body, which then never comes, is not answered a second time', async () => {
    const started = Date.now();
    // A screen form with no session: refused at once, before its body is read.
    const text = await dripped(
      'POST /business/import HTTP/1.1\r\nHost: desk\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\nf',
    );
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers, text).toHaveLength(1);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 (303|401) /);
    // Closed once the body did not come in time, not left open.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("an answer that takes longer than the limit is not cut off: only the request's arrival is timed", async () => {
    const { desk, key } = await makeDesk(store.db);
    await connectMailbox(store.db, desk.id, 2525);
    const row = await makeWork(store.db, desk.id, { title: 'Slow send', contact_email: 'slow@send.test' });
    await makeDraft(store.db, desk.id, row.id);
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/work/${row.id}/complete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { delivered: true } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
  });
});
