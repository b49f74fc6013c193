import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listKeys } from '../../src/domain/keys/create.ts';
import { listDesks } from '../../src/store/repositories/desks.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, secretKeyEnv, type TestStore } from '../helpers/db.ts';

// `desk demo` typed in several terminals at once on a database with no demo desk: one makes it,
// and each of the others hands out a key for the desk it made rather than failing on it.

describe.each(DIALECTS)('desk demo run together ($name)', ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store?.close());

  it('makes the desk once and a key for each', async () => {
    const names = ['first', 'second', 'third', 'fourth'];
    // Each its own process, as in separate terminals.
    const env = { ...process.env, ...secretKeyEnv(store.target), DESK_NOW: TEST_NOW };
    const runs = await Promise.all(
      names.map((n) =>
        promisify(execFile)(process.execPath, ['bin/desk.js', 'demo', '--db', store.target, '--key', n, '--json'], {
          env,
        }),
      ),
    );
    expect(runs.map((r) => r.stderr)).toEqual(names.map(() => ''));
    const answers = runs.map((r) => JSON.parse(r.stdout) as { created: boolean; desk: { slug: string } });
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.desk.slug))).toEqual(new Set(['demo-bakery']));
    const desks = await listDesks(store.db);
    expect(desks.map((d) => d.slug)).toEqual(['demo-bakery']);
    expect((await listKeys(store.db, desks[0]!.id)).map((k) => k.name).sort()).toEqual([...names].sort());
  }, 120_000);
});
