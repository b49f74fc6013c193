import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDeskClient, DeskApiError, DeskConnectionError, type AnswerInfo } from 'desk-client';
import { addDays, dateIn } from '../../../src/domain/dates.ts';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { sqliteStore, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../../../test/helpers/smtp.ts';
import { connectMailbox, messagesOf } from '../../../test/http/writes-helpers.ts';
import { serve, startProxy, type Fate, type Proxy as LossyProxy, type Served } from './server.ts';

// The contract's client rules under failure: answers lost, failed or late, and a rate limit.
// Waits between attempts are recorded and kept short, never timed.

describe('desk-client retries', () => {
  let store: TestStore;
  let served: Served;
  let smtp: TestSmtp;
  let proxy: LossyProxy | null = null;
  let d: Awaited<ReturnType<typeof makeDesk>>;

  beforeAll(async () => {
    store = await sqliteStore();
    smtp = await startSmtpServer({ mode: 'accept' });
    served = await serve(store, { mailTimeoutMs: 1500 });
    d = await makeDesk(store.db, { name: 'Corner Bakery Ltd' });
    await connectMailbox(store.db, d.desk.id, smtp.port);
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = null;
  });
  afterAll(async () => {
    await served.close();
    await smtp.close();
    await store.close();
  });

  /** A client through a proxy that gives the first matching request the fate named. */
  async function clientThrough(
    first: Fate,
    matches: (url: string) => boolean,
    extra: { timeouts?: { default?: number } } = {},
  ) {
    let used = false;
    proxy = await startProxy(served.baseUrl, (req) => {
      if (used || !matches(req.url ?? '')) return 'pass';
      used = true;
      return first;
    });
    const waits: number[] = [];
    const answers: AnswerInfo[] = [];
    const client = createDeskClient({
      baseUrl: proxy.baseUrl,
      key: d.key,
      retries: { retries: 3, baseDelayMs: 1, maxDelayMs: 5, wait: async (ms) => void waits.push(ms) },
      onAnswer: (a) => answers.push(a),
      ...extra,
    });
    return { client, waits, answers, proxy };
  }

  async function approvedRow(address: string) {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask about the lease renewal',
      class: 'reach_out',
      contact_name: 'Priya Shah',
      contact_email: address,
    });
    await makeDraft(store.db, d.desk.id, row.id, {
      to: address,
      subject: 'Lease renewal',
      body: 'Dear Priya, shall we renew?',
    });
    return row;
  }

  it('a complete whose answer was lost is retried with the same key, replayed, and sends one message', async () => {
    const address = 'priya+lost@landlord.test';
    const row = await approvedRow(address);
    const { client, waits, answers, proxy } = await clientThrough('drop-answer', (url) => url.endsWith('/complete'));

    const done = await client.work.complete(row.id, { note: 'Approved.' });
    expect(done).toMatchObject({ id: row.id, status: 'waiting', delivered: true });

    const completes = proxy.seen.filter((s) => s.url.endsWith(`/work/${row.id}/complete`));
    expect(completes.map((s) => [s.fate, s.status, s.replayed])).toEqual([
      ['drop-answer', 200, false],
      ['pass', 200, true],
    ]);
    expect(completes[0]!.idempotencyKey).toBeTruthy();
    expect(completes[1]!.idempotencyKey).toBe(completes[0]!.idempotencyKey);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      status: 200,
      replayed: true,
      attempt: 2,
      idempotencyKey: completes[0]!.idempotencyKey,
    });
    expect(waits).toHaveLength(1);
    expect(smtp.received.filter((m) => m.to.includes(address))).toHaveLength(1);
    expect(await messagesOf(store.db, d.desk.id, row.id)).toHaveLength(1);
  });

  it('a write that timed out is retried with the same key', async () => {
    const address = 'priya+late@landlord.test';
    const row = await approvedRow(address);
    const { client, proxy } = await clientThrough('hold-answer', (url) => url.endsWith('/complete'), {
      timeouts: { default: 1_000 },
    });

    const done = await client.work.complete(row.id);
    expect(done).toMatchObject({ id: row.id, delivered: true });
    const completes = proxy.seen.filter((s) => s.url.endsWith(`/work/${row.id}/complete`));
    expect(completes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(completes.map((s) => s.idempotencyKey)).size).toBe(1);
    expect(completes.slice(1).every((s) => s.status === undefined || s.replayed === true)).toBe(true);
    expect(smtp.received.filter((m) => m.to.includes(address))).toHaveLength(1);
  });

  it('a 5xx is retried with back-off; a read that never gets an answer ends in DeskConnectionError', async () => {
    const { client, waits, answers } = await clientThrough('fail-503', (url) => url.endsWith('/me'));
    expect((await client.me()).desk.name).toBe('Corner Bakery Ltd');
    expect(answers.map((a) => a.status)).toEqual([503, 200]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeLessThanOrEqual(5);

    const closed = await startProxy(served.baseUrl, () => 'pass');
    await closed.close();
    const unreachable = createDeskClient({
      baseUrl: closed.baseUrl,
      key: d.key,
      retries: { retries: 2, baseDelayMs: 1, maxDelayMs: 5, wait: async () => {} },
    });
    const err = await unreachable.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeskConnectionError);
    expect(err).toMatchObject({ attempts: 3, timedOut: false, idempotencyKey: null });
    // The network's own reason, not fetch's "fetch failed" alone.
    const port = new URL(closed.baseUrl).port;
    expect((err as Error).message).toBe(`GET /me failed: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`);
  });

  it('a write that never got an answer names its key, and calling again with it does the work once', async () => {
    // Due a month after the desk's pinned today; the snooze moves it on from there.
    const due = addDays(dateIn(d.desk.timezone, new Date(TEST_NOW)), 30);
    const row = await makeWork(store.db, d.desk.id, { title: 'Renew the van insurance', due_date: due });
    // The desk answers every attempt, and every answer is lost on the way back.
    const { client, answers, proxy } = await clientThrough('pass', () => false);
    const dropping = await startProxy(served.baseUrl, () => 'drop-answer');
    const lossy = createDeskClient({
      baseUrl: dropping.baseUrl,
      key: d.key,
      retries: { retries: 1, baseDelayMs: 1, maxDelayMs: 5, wait: async () => {} },
    });
    const err = await lossy.work.snooze(row.id, { days: 7 }).catch((e: unknown) => e);
    await dropping.close();
    expect(dropping.seen.map((s) => [s.status, s.replayed])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(err).toBeInstanceOf(DeskConnectionError);
    const key = (err as DeskConnectionError).idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);

    const again = await client.work.snooze(row.id, { days: 7 }, { idempotencyKey: key ?? undefined });
    expect(again.due_date).toBe(addDays(due, 7));
    expect(answers.map((a) => [a.status, a.replayed])).toEqual([[200, true]]);
    expect(proxy.seen.map((s) => s.idempotencyKey)).toEqual([key]);
  });

  it('a write whose every answer was a 5xx names its key on the error, and calling again with it does the work once', async () => {
    // A gateway that gives up after the desk has done the work: the outcome is unknown to the
    // caller, exactly as with no answer at all, so the key must reach the caller here too.
    const due = addDays(dateIn(d.desk.timezone, new Date(TEST_NOW)), 30);
    const row = await makeWork(store.db, d.desk.id, { title: 'Renew the shop insurance', due_date: due });
    const { client, answers, proxy } = await clientThrough('pass', () => false);
    const gateway = await startProxy(served.baseUrl, () => 'gateway-504');
    const behindGateway = createDeskClient({
      baseUrl: gateway.baseUrl,
      key: d.key,
      retries: { retries: 1, baseDelayMs: 1, maxDelayMs: 5, wait: async () => {} },
    });
    const err = await behindGateway.work.snooze(row.id, { days: 7 }).catch((e: unknown) => e);
    await gateway.close();
    expect(gateway.seen.map((s) => [s.status, s.replayed])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(err).toBeInstanceOf(DeskApiError);
    expect(err).toMatchObject({ status: 504, code: 'http_504' });
    const key = (err as DeskApiError).idempotencyKey;
    expect(key).toBe(gateway.seen[0]?.idempotencyKey);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);

    const again = await client.work.snooze(row.id, { days: 7 }, { idempotencyKey: key ?? undefined });
    expect(again.due_date).toBe(addDays(due, 7));
    expect(answers.map((a) => [a.status, a.replayed])).toEqual([[200, true]]);
    expect(proxy.seen.map((s) => s.idempotencyKey)).toEqual([key]);

    // A read carries no key, so its error names none.
    const read = await createDeskClient({ baseUrl: served.baseUrl, key: d.key })
      .work.get(1_000_000)
      .catch((e: unknown) => e);
    expect(read).toMatchObject({ status: 404, idempotencyKey: null });
  });
});

describe('desk-client and a desk that is stopping', () => {
  let store: TestStore;
  let served: Served;
  let stopping = true;

  beforeAll(async () => {
    store = await sqliteStore();
    served = await serve(store, {}, { draining: () => stopping });
  });
  afterAll(async () => {
    await served.close();
    await store.close();
  });

  it("waits as long as the 503's Retry-After asks, not its own short back-off", async () => {
    const d = await makeDesk(store.db);
    const waits: number[] = [];
    const answers: AnswerInfo[] = [];
    const client = createDeskClient({
      baseUrl: served.baseUrl,
      key: d.key,
      retries: {
        baseDelayMs: 1,
        maxDelayMs: 5,
        wait: async (ms) => {
          waits.push(ms);
          stopping = false;
        },
      },
      onAnswer: (a) => answers.push(a),
    });
    expect((await client.me()).desk.id).toBe(d.desk.id);
    expect(answers.map((a) => a.status)).toEqual([503, 200]);
    expect(waits).toEqual([5_000]);
  });

  it('throws the 503 with its Retry-After when that is longer than the client will wait', async () => {
    stopping = true;
    const d = await makeDesk(store.db);
    const client = createDeskClient({
      baseUrl: served.baseUrl,
      key: d.key,
      retries: { maxRetryAfterMs: 1_000, wait: async () => {} },
    });
    const err = await client.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeskApiError);
    expect(err).toMatchObject({ status: 503, code: 'unavailable', retryAfterMs: 5_000 });
  });

  it("cancels a read with the caller's signal, with the abort reason", async () => {
    const d = await makeDesk(store.db);
    const client = createDeskClient({ baseUrl: served.baseUrl, key: d.key });
    const stop = new AbortController();
    const reason = new Error('the page was closed');
    stop.abort(reason);
    await expect(client.work.list({ limit: 5 }, { signal: stop.signal })).rejects.toBe(reason);
    await expect(client.me({ signal: stop.signal })).rejects.toBe(reason);
  });
});

describe('desk-client and the rate limit', () => {
  let store: TestStore;
  let served: Served;

  beforeAll(async () => {
    store = await sqliteStore();
    served = await serve(store, { rateLimitPerMinute: 3 });
  });
  afterAll(async () => {
    await served.close();
    await store.close();
  });

  it('waits out a 429 for as long as Retry-After asks, then retries', async () => {
    const d = await makeDesk(store.db);
    // The limiter counts its minute by the wall clock; the client's wait moves that clock on
    // instead of sleeping, so the minute passes at once.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    const waits: number[] = [];
    const answers: AnswerInfo[] = [];
    const client = createDeskClient({
      baseUrl: served.baseUrl,
      key: d.key,
      retries: {
        baseDelayMs: 1,
        maxDelayMs: 5,
        wait: async (ms) => {
          waits.push(ms);
          vi.setSystemTime(Date.now() + ms);
        },
      },
      onAnswer: (a) => answers.push(a),
    });
    try {
      for (let i = 0; i < 4; i++) expect((await client.me()).desk.id).toBe(d.desk.id);
    } finally {
      vi.useRealTimers();
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 200]);
    // The wait was the desk's Retry-After, not the client's few-millisecond back-off.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1_000);
    expect(waits[0]).toBeLessThanOrEqual(60_000);
  });

  it('stops waiting between attempts as soon as the caller aborts, with the abort reason', async () => {
    let attempts = 0;
    const client = createDeskClient({
      baseUrl: 'http://desk.invalid/api/v1',
      key: 'desk_x',
      // Every answer is a 503, so the call waits out its back-off: a minute, were it not cancelled.
      fetch: async () => {
        attempts += 1;
        return new Response('{"error":{"code":"unavailable","message":"Stopping."}}', { status: 503 });
      },
      retries: { baseDelayMs: 60_000, maxDelayMs: 60_000, wait: () => new Promise(() => {}) },
    });
    const stop = new AbortController();
    const reason = new Error('the caller gave up');
    const call = client.work.snooze(1, { days: 3 }, { signal: stop.signal });
    await vi.waitFor(() => expect(attempts).toBe(1));
    stop.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(attempts).toBe(1);
  });

  it('never retries other 4xx', async () => {
    const d = await makeDesk(store.db);
    const answers: AnswerInfo[] = [];
    const client = createDeskClient({
      baseUrl: served.baseUrl,
      key: d.key,
      retries: { wait: async () => {} },
      onAnswer: (a) => answers.push(a),
    });
    await expect(client.work.snooze(1_000_000, { days: 400 })).rejects.toMatchObject({
      status: 400,
      code: 'bad_request',
    });
    expect(answers).toHaveLength(1);
  });
});

describe('desk-client settings no call could keep', () => {
  const fetched: string[] = [];
  const fetch = async (url: string) => {
    fetched.push(url);
    return { status: 200, headers: new Headers(), text: async () => '{"data":{}}' };
  };
  const base = { baseUrl: 'http://127.0.0.1:9/api/v1', key: 'desk_test_key', fetch };

  it('refuses them when the client is made, before anything is sent', () => {
    for (const [over, said] of [
      [{ retries: Number(undefined) }, /^retries is a number from 0 to \d+; it was given NaN\.$/],
      [{ retries: { retries: -1 } }, /^retries is a number from 0 to/],
      [{ retries: { baseDelayMs: Number.POSITIVE_INFINITY } }, /^retries\.baseDelayMs is a number/],
      [{ timeouts: { default: Number('') + Number.NaN } }, /^timeouts\.default is a number from 1 to/],
      [{ timeouts: { run: 0 } }, /^timeouts\.run is a number from 1 to 2147483647; it was given 0\.$/],
      [{ baseUrl: '127.0.0.1:7141/api/v1' }, /^baseUrl is (a whole URL|an http or https URL)/],
      [{ baseUrl: 'ftp://127.0.0.1/api/v1' }, /^baseUrl is an http or https URL/],
      // A browser's address pasted whole: every call would go to the query's route.
      [{ baseUrl: 'http://127.0.0.1:9/api/v1?token=desk_test_key' }, /^baseUrl ends at the API's path, .*no query/],
      [{ baseUrl: 'http://127.0.0.1:9/api/v1#x' }, /^baseUrl ends at the API's path/],
      [{ baseUrl: 'http://127.0.0.1:9/api/v1?' }, /^baseUrl ends at the API's path/],
      [{ baseUrl: 'http://u:p@127.0.0.1:9/api/v1' }, /^baseUrl holds no user name or password/],
      [{ key: 'desk_ключ' }, /^key is the API key the desk gave/],
      // Past what a timer keeps: it would fire at once.
      [
        { timeouts: { default: 2 ** 31 } },
        /^timeouts\.default is a number from 1 to 2147483647; it was given 2147483648\.$/,
      ],
      [{ retries: { maxDelayMs: 3e9 } }, /^retries\.maxDelayMs is a number from 0 to 2147483647/],
      [{ key: 'desk_a\r\nX-Other: 1' }, /^key is the API key the desk gave/],
      // The URL parser drops or encodes these, and every call would answer not_found.
      [{ baseUrl: 'http://127.0.0.1:9/api/v1/ x' }, /^baseUrl is one URL with no spaces or line breaks in it/],
      [{ baseUrl: 'http://127.0.0.1:9/api\n/v1' }, /^baseUrl is one URL with no spaces or line breaks in it/],
    ] as const)
      expect(() => createDeskClient({ ...base, ...over }), JSON.stringify(over)).toThrow(said);
    expect(fetched).toEqual([]);
    // The refusal does not repeat an address that may hold the key.
    const said = (() => {
      try {
        createDeskClient({ ...base, baseUrl: 'http://127.0.0.1:9/api/v1?token=desk_secret_key' });
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(said).toMatch(/^baseUrl ends at/);
    expect(said).not.toContain('desk_secret_key');
    // Nor does a refusal for another fault of such an address.
    for (const baseUrl of ['localhost:8080/api/v1?token=desk_secret_key', 'http//127.0.0.1/api/v1#desk_secret_key'])
      expect(() => createDeskClient({ ...base, baseUrl }), baseUrl).toThrow(/it was given "[^"]*\?…"\.$/);
  });

  it('takes the defaults for settings left out, and whole settings as given', async () => {
    const client = createDeskClient({ ...base, retries: 0, timeouts: { default: 1000 } });
    await client.me();
    expect(fetched).toEqual(['http://127.0.0.1:9/api/v1/me']);
    // A key read from a file keeps its line break; HTTP would drop it, and so does the client.
    const seen: string[] = [];
    const keyed = createDeskClient({
      ...base,
      key: 'desk_test_key\n',
      fetch: async (url, init) => {
        seen.push(init.headers.authorization!);
        return fetch(url);
      },
    });
    await keyed.me();
    expect(seen).toEqual(['Bearer desk_test_key']);
    // So does a base URL read from a file, its slash kept off the path.
    fetched.length = 0;
    for (const baseUrl of [
      'http://127.0.0.1:9/api/v1 ',
      ' http://127.0.0.1:9/api/v1/\n',
      '\thttp://127.0.0.1:9/api/v1//\r\n',
    ])
      await createDeskClient({ ...base, baseUrl }).me();
    expect(fetched).toEqual(Array(3).fill('http://127.0.0.1:9/api/v1/me'));
  });

  it("says a success that is not the desk's answer most likely means a base URL short of /api/v1", async () => {
    const page = createDeskClient({
      ...base,
      fetch: async () => ({
        status: 200,
        headers: new Headers(),
        text: async () => '<!doctype html><title>Desk</title>',
      }),
    });
    const err = await page.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeskApiError);
    expect(err).toMatchObject({
      status: 200,
      code: 'http_200',
      message: "HTTP 200 with no Desk answer (JSON with data) in it: is baseUrl the desk's API, ending in /api/v1?",
    });
  });
});
