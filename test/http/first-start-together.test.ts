import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDesks } from '../../src/store/repositories/desks.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';

// Replicas started together on a new database: one makes the demo desk, and the others serve
// beside it rather than failing on the desk it made.

describe.each(DIALECTS)('servers started together on a new database ($name)', ({ open }) => {
  let store: TestStore;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await store?.close();
  });

  it('all start, and the demo desk is made once', async () => {
    servers.push(...(await Promise.all([1, 2, 3].map(() => startServerProcess(store.target)))));
    const made = servers.filter((s) => s.output().includes('First start: created the demo desk'));
    expect(made).toHaveLength(1);
    expect((await listDesks(store.db)).map((d) => d.slug)).toEqual(['demo-bakery']);
    for (const s of servers) expect((await fetch(`${s.url}/api/v1/openapi.json`)).status).toBe(200);
  }, 120_000);
});
