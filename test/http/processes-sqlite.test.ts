import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';

// Two `desk serve` processes on one SQLite file, as the README allows: writes that arrive at
// both together each wait for the other's commit, and none is refused for it. Dates are plain
// keys handed in; no clock is read.

const ROUNDS = 4;
const EACH = 30;

describe('two server processes writing to one SQLite file', () => {
  let store: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    store = await sqliteStore();
    a = await startServerProcess(store.target);
    b = await startServerProcess(store.target);
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await store?.close();
  });

  it('answers every one of many snoozes sent to both at once, and each moves the date once', async () => {
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { due_date: '2030-01-01', priority: 50 });
    const statuses: number[] = [];
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all(
        Array.from({ length: EACH }, (_, i) =>
          fetch(`${(i % 2 ? a : b).url}/api/v1/work/${row.id}/snooze`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${d.key}`,
              'content-type': 'application/json',
              'idempotency-key': `both-${round}-${i}`,
            },
            body: '{"days":1}',
          }),
        ),
      );
      for (const r of answers) {
        statuses.push(r.status);
        if (r.status !== 200) failures.push(await r.text());
      }
    }
    expect(failures).toEqual([]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const after = (await findWork(store.db, d.desk.id, row.id))!;
    expect(after.due_date).toBe(addDays('2030-01-01', ROUNDS * EACH));
    expect(after.priority).toBe(1); // P-1: the floor
  }, 120_000);
});
