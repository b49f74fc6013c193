import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, postgresStore, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { REDIS_URL, redisAvailable } from '../helpers/redis.ts';
import { makeArrangement } from './writes-helpers.ts';

// Two `desk serve` processes on one PostgreSQL database and one Redis, as a deployment behind a
// load balancer runs them: a key's request limit is one limit however its requests are spread,
// and one Idempotency-Key sent to both at the same moment writes once.

const LIMIT = 6;
const skipped = !PG_URL
  ? 'DESK_TEST_DATABASE_URL is not set'
  : !redisAvailable
    ? `nothing answers at ${REDIS_URL}`
    : null;
if (skipped) console.info(`Two-process PostgreSQL and Redis tests skipped: ${skipped}.`);

describe.runIf(!skipped)('two server processes sharing PostgreSQL and Redis', () => {
  let store: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    store = await postgresStore();
    const env = { DESK_REDIS_URL: REDIS_URL, DESK_RATE_LIMIT: String(LIMIT) };
    a = await startServerProcess(store.target, env);
    b = await startServerProcess(store.target, env);
  }, 180_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await store?.close();
  });

  it("counts a key's requests to both processes against one limit", async () => {
    const d = await makeDesk(store.db);
    const get = (s: ServerProcess) => fetch(`${s.url}/api/v1/me`, { headers: { authorization: `Bearer ${d.key}` } });
    const codes: number[] = [];
    for (let i = 0; i < LIMIT; i++) codes.push((await get(i % 2 === 0 ? a : b)).status);
    expect(codes).toEqual(Array(LIMIT).fill(200));
    for (const s of [a, b]) {
      const over = await get(s);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await over.json()).error.code).toBe('rate_limited');
    }
  });

  it('writes once when the same Idempotency-Key reaches both processes at once', async () => {
    const d = await makeDesk(store.db);
    const arr = await makeArrangement(store.db, d.desk.id);
    const note = (s: ServerProcess, key: string, text: string) =>
      fetch(`${s.url}/api/v1/arrangements/${arr.id}/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ body: text }),
      });
    const keys = ['pair-1', 'pair-2', 'pair-3'];
    for (const key of keys) {
      const [x, y] = await Promise.all([note(a, key, `${key} via a`), note(b, key, `${key} via b`)]);
      expect([x.status, y.status]).toEqual([200, 200]);
      const replayed = [x, y].filter((r) => r.headers.get('idempotent-replayed') === 'true');
      expect(replayed).toHaveLength(1);
      expect(await y.text()).toBe(await x.text());
    }
    const notes = await store.db
      .selectFrom('activity')
      .select('body')
      .where('arrangement_id', '=', arr.id)
      .where('kind', '=', 'note')
      .execute();
    expect(notes).toHaveLength(keys.length);
    const writes = await store.db
      .selectFrom('events')
      .select('id')
      .where('desk_id', '=', d.desk.id)
      .where('kind', '=', 'api_write')
      .execute();
    expect(writes).toHaveLength(keys.length);
  });
});
