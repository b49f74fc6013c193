import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import { realEngine } from '../../src/container.ts';
import { buildApp } from '../../src/http/app.ts';
import { logColours, serverLogger } from '../../src/http/log-format.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { TEST_NOW } from '../helpers/app.ts';

// Keys never reach the server's log, even when sent in the URL as ?token=.

/** The app with its log kept as text: `log.text` so far, `log.clear()` to start again. */
async function loggingApp(store: TestStore) {
  const log = {
    text: '',
    clear() {
      log.text = '';
    },
  };
  const stream = new Writable({
    write(chunk, _enc, done) {
      log.text += chunk.toString();
      done();
    },
  });
  const config = loadConfig({ DESK_DATABASE_URL: store.target });
  const app = await buildApp(
    { store, clock: new FixedClock(new Date(TEST_NOW)), config, engine: realEngine(config) },
    { logger: { level: 'info', stream } },
  );
  return { app, log };
}

describe('the server log', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await sqliteStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it('records requests with the token in the URL redacted', async () => {
    const { app, log } = await loggingApp(store);
    try {
      const d = await makeDesk(store.db);
      const res = await app.inject({ method: 'GET', url: `/api/v1/me?token=${d.key}&x=1` });
      expect(res.statusCode).toBe(200);
      expect(log.text).toContain('/api/v1/me?token=[redacted]&x=1');
      expect(log.text).not.toContain(d.key);
      expect(log.text).not.toContain(d.key.slice(5));
    } finally {
      await app.close();
    }
  });

  it('redacts a token whose name is spelled with escapes, which the server still reads as token', async () => {
    const { app, log } = await loggingApp(store);
    try {
      const d = await makeDesk(store.db);
      for (const name of ['%74oken', 'tok%65n', '%54OKEN']) {
        const res = await app.inject({ method: 'GET', url: `/api/v1/me?x=1&${name}=${d.key}` });
        if (name !== '%54OKEN') expect(res.statusCode).toBe(200);
        expect(log.text).toContain(`/api/v1/me?x=1&${name}=[redacted]`);
      }
      expect(log.text).not.toContain(d.key.slice(5));
    } finally {
      await app.close();
    }
  });

  it('redacts a key under a name the server does not take, escaped inside another value, or in the path', async () => {
    const { app, log } = await loggingApp(store);
    try {
      const d = await makeDesk(store.db);
      const escaped = encodeURIComponent(`&token=${d.key}`);
      for (const [url, logged] of [
        [`/api/v1/me?token[]=${d.key}`, '/api/v1/me?token[]=[redacted]'],
        [`/api/v1/me?token[a]=${d.key}&x=1`, '/api/v1/me?token[a]=[redacted]&x=1'],
        [`/api/v1/me?token%00=${d.key}`, '/api/v1/me?token%00=[redacted]'],
        [`/api/v1/me?x=1${escaped}`, '/api/v1/me?x=[redacted]'],
        [`/api/v1/me?${d.key}`, '/api/v1/me?[redacted]'],
        [`/api/v1/${d.key}/me`, '/api/v1/[redacted]/me'],
        [`/api/v1/work?kind=${d.key.replace('_', '%5F')}`, '/api/v1/work?kind=[redacted]'],
      ] as const) {
        await app.inject({ method: 'GET', url });
        expect(log.text, url).toContain(logged);
      }
      expect(log.text).not.toContain(d.key.slice(5));
    } finally {
      await app.close();
    }
  });
});

describe("the log's format and the root", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await sqliteStore();
  });
  afterAll(async () => {
    await store.close();
  });

  /** What the log says of the requests `send` makes to a server logging as `format` and `isTTY` choose. */
  async function logOf(
    format: string | undefined,
    isTTY: boolean,
    send: (app: FastifyInstance) => Promise<void> = async (app) => {
      expect((await app.inject({ method: 'GET', url: '/api/v1/openapi.json?token=desk_secret' })).statusCode).toBe(200);
    },
  ): Promise<{ logged: string; pretty: boolean }> {
    let logged = '';
    const destination = new Writable({
      write(chunk, _enc, done) {
        logged += chunk.toString();
        done();
      },
    });
    const choice = serverLogger('info', format, isTTY, destination);
    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    const app = await buildApp(
      { store, clock: new FixedClock(new Date('2026-11-22T10:00:00Z')), config, engine: realEngine(config) },
      { logger: choice.logger, requestLines: choice.pretty },
    );
    try {
      await send(app);
    } finally {
      await app.close();
    }
    return { logged, pretty: choice.pretty };
  }

  it('colours a terminal log unless NO_COLOR is set to anything', () => {
    expect(logColours(true, {})).toBe(true);
    expect(logColours(true, { NO_COLOR: '' })).toBe(true);
    expect(logColours(true, { NO_COLOR: '1' })).toBe(false);
    expect(logColours(false, {})).toBe(false);
  });

  it('on a terminal: one readable line per request with a readable time, no JSON', async () => {
    const { logged, pretty } = await logOf(undefined, true);
    expect(pretty).toBe(true);
    const lines = logged
      .trim()
      .split('\n')
      .filter((l) => l.includes('/api/v1/openapi.json'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] INFO: GET \/api\/v1\/openapi\.json\?token=\[redacted\] 200 in \d+ ms$/,
    );
    expect(logged).not.toContain('{"level"');
    expect(logged).not.toContain('desk_secret');
  });

  it("on a terminal, a failure's lines name its request and the id its answer gives", async () => {
    let id = '';
    const { logged } = await logOf(undefined, true, async (app) => {
      app.get('/api/v1/broken', async () => {
        throw new Error('a fault of the code');
      });
      const res = await app.inject({ method: 'GET', url: '/api/v1/broken?token=desk_secret' });
      expect(res.statusCode).toBe(500);
      id = res.json().error.details.request_id;
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const lines = logged.trim().split('\n');
    expect(lines.find((l) => l.includes('ERROR:'))).toMatch(
      new RegExp(`ERROR: GET /api/v1/broken\\?token=\\[redacted\\] failed \\(request ${id}\\)`),
    );
    expect(lines.find((l) => l.includes('INFO: GET /api/v1/broken'))).toMatch(
      new RegExp(` 500 in \\d+ ms \\(request ${id}\\)$`),
    );
    expect(logged).not.toContain('desk_secret');
  });

  it('JSON lines when not on a terminal, or with DESK_LOG_FORMAT=json', async () => {
    for (const [format, tty] of [
      [undefined, false],
      ['json', true],
    ] as const) {
      const { logged, pretty } = await logOf(format, tty);
      expect(pretty).toBe(false);
      const entries = logged
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(entries.some((e) => e.req?.url === '/api/v1/openapi.json?token=[redacted]')).toBe(true);
    }
  });

  it('GET / says where things are', async () => {
    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    const app = await buildApp({
      store,
      clock: new FixedClock(new Date('2026-11-22T10:00:00Z')),
      config,
      engine: realEngine(config),
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ api: '/api/v1', openapi: '/api/v1/openapi.json' });
      expect(Object.keys((app.swagger() as { paths: Record<string, unknown> }).paths)).not.toContain('');
    } finally {
      await app.close();
    }
  });
  it('logs a replay answered to an unreadable body under a used key as what went out, with no error', async () => {
    const { app, log } = await loggingApp(store);
    try {
      const d = await makeDesk(store.db);
      const w = await makeWork(store.db, d.desk.id, { title: 'Replayed' });
      const headers = {
        authorization: `Bearer ${d.key}`,
        'content-type': 'application/json',
        'idempotency-key': 'unread-1',
      };
      const url = `/api/v1/work/${w.id}/snooze`;
      expect((await app.inject({ method: 'POST', url, headers, payload: '{"days":1}' })).statusCode).toBe(200);
      log.clear();
      const again = await app.inject({ method: 'POST', url, headers, payload: '{days' });
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const lines = log.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { level: number; res?: { statusCode: number } });
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
      expect(lines.flatMap((l) => (l.res ? [l.res.statusCode] : []))).toEqual([200]);
    } finally {
      await app.close();
    }
  });
});
