import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, sqliteStore, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeArrangement, makeDesk } from '../helpers/factories.ts';
import { REDIS_URL, redisAvailable } from '../helpers/redis.ts';

// D28 and D29: request limits, and what a fault at the desk end looks like from outside.

describe('limits and faults', () => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store, { config: { rateLimitPerMinute: 3 } });
    d = await makeDesk(store.db);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('too many requests for one key is 429 rate_limited with Retry-After; another key is unaffected', async () => {
    const other = await makeDesk(store.db);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await h.call('GET', '/api/v1/', { key: d.key }));
    expect(answers.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const limited = answers[3]!;
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await h.call('GET', '/api/v1/', { key: other.key })).statusCode).toBe(200);
  });

  it('one key has one bucket however it is spelled: header, lower-case scheme or ?token=', async () => {
    const k = await makeDesk(store.db);
    const codes = [];
    codes.push((await h.call('GET', '/api/v1/', { headers: { authorization: `Bearer ${k.key}` } })).statusCode);
    codes.push((await h.call('GET', '/api/v1/', { headers: { authorization: `bearer   ${k.key}` } })).statusCode);
    codes.push((await h.call('GET', `/api/v1/?token=${k.key}`)).statusCode);
    codes.push(
      (await h.call('GET', `/api/v1/?token=${k.key}`, { headers: { authorization: `BEARER ${k.key}` } })).statusCode,
    );
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('a fault at the desk end is a 500 with a fixed message and the request id, never the cause; nothing is half-written', async () => {
    const fresh = await makeDesk(store.db);
    const arr = await makeArrangement(store.db, fresh.desk.id, 'Lease');
    // The desk log going missing is a fault at the desk end: a note writes its entry, then fails on the event.
    await sql`DROP TABLE events`.execute(store.db);
    const failed = await h.call('POST', `/api/v1/arrangements/${arr.id}/notes`, {
      key: fresh.key,
      body: { body: 'hello' },
    });
    expect(failed.statusCode).toBe(500);
    const body = failed.json();
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).toBe('Something went wrong at the desk end. Try again with the same Idempotency-Key.');
    expect(body.error.details.request_id).toBe(failed.headers['x-request-id']);
    expect(JSON.stringify(body)).not.toMatch(/events|sqlite|table/i);
    const notes = await store.db.selectFrom('activity').selectAll().where('arrangement_id', '=', arr.id).execute();
    expect(notes).toHaveLength(0);
  });
});

describe('guessing keys', () => {
  let store: TestStore;
  let h: Harness;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store, { config: { rateLimitPerMinute: 100, refusedKeysPerMinute: 5 } });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('made-up keys from one address share one small bucket; a valid key from the same address is unaffected', async () => {
    const valid = await makeDesk(store.db);
    const codes = [];
    for (let i = 0; i < 7; i++) {
      const res = await h.call('GET', '/api/v1/me', {
        headers: { authorization: `Bearer desk_${String(i).repeat(40).slice(0, 40)}` },
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().error.message).toMatch(/^Too many refused keys from this address; try again in \d+ s\.$/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect((await h.call('GET', '/api/v1/me', { key: valid.key })).statusCode).toBe(200);
  });
});

describe('behind a reverse proxy (DESK_TRUSTED_PROXIES)', () => {
  let store: TestStore;

  beforeAll(async () => {
    store = await sqliteStore();
  });
  afterAll(async () => {
    await store.close();
  });

  /** The codes of refused keys sent through the proxy at 127.0.0.1 for each forwarded client in turn. */
  async function refusedFrom(trustedProxies: string[], clients: string[]): Promise<number[]> {
    const h = await harness(store, { config: { rateLimitPerMinute: 100, refusedKeysPerMinute: 2, trustedProxies } });
    try {
      const codes = [];
      for (const client of clients)
        codes.push(
          (
            await h.call('GET', '/api/v1/me', {
              headers: { authorization: `Bearer desk_${'x'.repeat(40)}`, 'x-forwarded-for': client },
            })
          ).statusCode,
        );
      return codes;
    } finally {
      await h.close();
    }
  }

  const clients = ['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2', '198.51.100.7, 203.0.113.3'];

  it("counts each client the trusted proxy names against the client's own address", async () => {
    // The third from 203.0.113.1 is over its limit; the others are clients of their own.
    expect(await refusedFrom(['127.0.0.1'], clients)).toEqual([401, 401, 429, 401, 401]);
    expect(await refusedFrom(['loopback'], clients)).toEqual([401, 401, 429, 401, 401]);
  });

  it('counts a client the proxy names with its port, or in another spelling, as that one client', async () => {
    const same = [
      '203.0.113.7:50001',
      '203.0.113.7:50002',
      '203.0.113.7',
      '[2001:db8::7]:443',
      '2001:DB8:0::7',
      '[2001:db8::7]:444',
    ];
    expect(await refusedFrom(['127.0.0.1'], same)).toEqual([401, 401, 429, 401, 401, 429]);
  });

  it('believes no X-Forwarded-For from an address it was not told to trust, nor by default', async () => {
    expect(await refusedFrom(['10.0.0.1'], clients)).toEqual([401, 401, 429, 429, 429]);
    expect(await refusedFrom([], clients)).toEqual([401, 401, 429, 429, 429]);
  });
});

describe('requests with no key at all', () => {
  let store: TestStore;
  let h: Harness;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store, { config: { rateLimitPerMinute: 6, refusedKeysPerMinute: 2 } });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it("count against their address's own limit, not the refused keys' smaller one (P-limits-2)", async () => {
    const codes = [];
    for (let i = 0; i < 7; i++) {
      const res = await h.call('GET', '/api/v1/me');
      codes.push(res.statusCode);
      if (res.statusCode === 429)
        expect(res.json().error.message).toMatch(/^Too many requests from this address without a key; try again/);
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 401, 429]);
    // A header that is not `Bearer <key>` presents something, and counts as a refused key.
    const malformed = [];
    for (let i = 0; i < 3; i++)
      malformed.push((await h.call('GET', '/api/v1/me', { headers: { authorization: 'Basic abc' } })).statusCode);
    expect(malformed).toEqual([401, 401, 429]);
  });
});

describe.skipIf(!redisAvailable)('one limit shared by every server process through Redis', () => {
  let store: TestStore;
  let a: Harness;
  let b: Harness;

  beforeAll(async () => {
    store = await sqliteStore();
    const config = { rateLimitPerMinute: 3, redisUrl: REDIS_URL };
    a = await harness(store, { config });
    b = await harness(store, { config });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.close();
  });

  it("two servers on one Redis count one key's requests together", async () => {
    const d = await makeDesk(store.db);
    const codes = [];
    for (const h of [a, b, a, b]) codes.push((await h.call('GET', '/api/v1/', { key: d.key })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it("keeps the screen's count for an address apart from the API's, as each process does without Redis", async () => {
    // An address of its own, so no other run's count in the shared Redis is in this one's.
    const remoteAddress = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    const screen = [];
    for (let i = 0; i < 4; i++) screen.push((await a.app.inject({ url: '/sign-in', remoteAddress })).statusCode);
    expect(screen.at(-1)).toBe(429);
    const api = await b.app.inject({ url: '/api/v1/openapi.json', remoteAddress });
    expect(api.statusCode).toBe(200);
  });
});

describe('a Redis for the limits that cannot be reached', () => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await sqliteStore();
    // Nothing listens on port 1.
    h = await harness(store, { config: { rateLimitPerMinute: 3, redisUrl: 'redis://127.0.0.1:1/7' } });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('lets requests through unlimited rather than failing them', async () => {
    const d = await makeDesk(store.db);
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await h.call('GET', '/api/v1/', { key: d.key })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200]);
  });
});

describe.each(DIALECTS)('a burst just over the limit ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  beforeAll(async () => {
    store = await open();
    h = await harness(store, { config: { rateLimitPerMinute: 300 } });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('refuses only the requests past the limit, however many are counted at once', async () => {
    const { key } = await makeDesk(store.db);
    const answers = await Promise.all(Array.from({ length: 320 }, () => h.call('GET', '/api/v1/me', { key })));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(300);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    // What each answer says is left is its own count's, not the bucket's last.
    const left = answers.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-ratelimit-remaining']));
    expect(left.sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
});
