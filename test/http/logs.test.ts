import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import { realEngine } from '../../src/container.ts';
import { buildApp } from '../../src/http/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// Keys never reach the server's log, even when sent in the URL as ?token=.

describe('the server log', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await sqliteStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it('records requests with the token in the URL redacted', async () => {
    let logged = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        logged += chunk.toString();
        done();
      },
    });
    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    const app = await buildApp({ store, clock: new FixedClock(new Date('2026-11-22T10:00:00Z')), config, engine: realEngine(config) }, { logger: { level: 'info', stream } });
    try {
      const d = await makeDesk(store.db);
      const res = await app.inject({ method: 'GET', url: `/api/v1/me?token=${d.key}&x=1` });
      expect(res.statusCode).toBe(200);
      expect(logged).toContain('/api/v1/me?token=[redacted]&x=1');
      expect(logged).not.toContain(d.key);
      expect(logged).not.toContain(d.key.slice(5));
    } finally {
      await app.close();
    }
  });
});
