import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listKeys } from '../../src/domain/keys/create.ts';
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
    // Each started one is kept for afterAll to stop, whatever the others did.
    const started = await Promise.allSettled([1, 2, 3].map(() => startServerProcess(store.target)));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    expect(started.filter((s) => s.status === 'rejected').map((s) => String(s.reason))).toEqual([]);
    const made = servers.filter((s) => s.output().includes('First start: created the demo desk'));
    expect(made).toHaveLength(1);
    const desks = await listDesks(store.db);
    expect(desks.map((d) => d.slug)).toEqual(['demo-bakery']);
    // Only the key that was printed: the others made none that nobody was shown.
    expect(await listKeys(store.db, desks[0]!.id)).toHaveLength(1);
    for (const s of servers) expect((await fetch(`${s.url}/api/v1/openapi.json`)).status).toBe(200);
  }, 120_000);
});
