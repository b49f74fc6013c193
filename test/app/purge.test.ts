import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeIdempotency } from '../../src/app/idempotency/purge.ts';
import { startWatchScheduler } from '../../src/app/watches/scheduler.ts';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import type { Deps } from '../../src/domain/context.ts';
import { claimKey, PURGE_BATCH } from '../../src/store/repositories/idempotency.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';
import { turnsDuring } from '../helpers/turns.ts';

const HOUR = 3_600_000;
const at = (ms: number) => new Date(new Date(TEST_NOW).getTime() + ms).toISOString();

describe.each(DIALECTS)('idempotency purge ($name)', ({ open }) => {
  let store: TestStore;
  let clock: FixedClock;
  let deps: Deps;

  beforeAll(async () => {
    store = await open();
    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    clock = new FixedClock(new Date(TEST_NOW));
    deps = { store, clock, config, engine: realEngine(config) };
  });
  afterAll(async () => {
    await store.close();
  });

  const keysOf = async (deskId: string) =>
    (await store.db.selectFrom('idempotency').select('key').where('desk_id', '=', deskId).orderBy('key').execute()).map(
      (r) => r.key,
    );

  /** Three records: expired an hour ago, expiring now, expiring in an hour. */
  async function seed(): Promise<string> {
    const { desk } = await makeDesk(store.db);
    await claimKey(store.db, desk.id, 'a-past', at(-25 * HOUR), at(-HOUR));
    await claimKey(store.db, desk.id, 'b-now', at(-24 * HOUR), at(0));
    await claimKey(store.db, desk.id, 'c-future', at(-23 * HOUR), at(HOUR));
    return desk.id;
  }

  it("removes the records expired at the clock's now and keeps the rest", async () => {
    clock.set(TEST_NOW);
    const deskId = await seed();
    expect(await purgeIdempotency(deps)).toBeGreaterThanOrEqual(2);
    expect(await keysOf(deskId)).toEqual(['c-future']);
    clock.set(at(HOUR));
    await purgeIdempotency(deps);
    expect(await keysOf(deskId)).toEqual([]);
  });

  it('removes more than a batch a batch at a time, letting other work in between', async () => {
    clock.set(TEST_NOW);
    const { desk } = await makeDesk(store.db);
    const many = PURGE_BATCH * 2 + 7;
    const rows = Array.from({ length: many }, (_, i) => ({
      desk_id: desk.id,
      key: `old-${i}`,
      state: 'pending',
      created_at: at(-25 * HOUR),
      expires_at: at(-HOUR - i),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await store.db
        .insertInto('idempotency')
        .values(rows.slice(i, i + 500))
        .execute();
    await claimKey(store.db, desk.id, 'kept', at(-HOUR), at(HOUR));
    let purged = 0;
    const turns = await turnsDuring(async () => {
      purged = await purgeIdempotency(deps);
    });
    expect(purged).toBeGreaterThanOrEqual(many);
    expect(await keysOf(desk.id)).toEqual(['kept']);
    // Three batches, with a turn for other work after each full one.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('the scheduler in the server purges before each pass', async () => {
    clock.set(TEST_NOW);
    const deskId = await seed();
    const purged: string[][] = [];
    let second!: () => void;
    const twice = new Promise<void>((resolve) => (second = resolve));
    const stop = startWatchScheduler(deps, {
      intervalMs: 1,
      log: { info: () => undefined, error: () => undefined },
      pass: async () => {
        purged.push(await keysOf(deskId));
        if (purged.length === 1) clock.set(at(2 * HOUR));
        if (purged.length === 2) second();
        return { desks: 0, created: [], failures: [] };
      },
    });
    await twice;
    await stop();
    expect(purged.slice(0, 2)).toEqual([['c-future'], []]);
  });
});
