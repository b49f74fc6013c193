import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Generated, type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './db.ts';

// A server's checkpoints run on a thread of their own: the log's pages reach the database file
// without the connection that commits copying them, and closing the store ends the thread.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

type Raw = Kysely<{ t: { id: Generated<number>; v: string } }>;

async function storeWithRows(serving: boolean): Promise<{ store: Store; file: string; sizeBefore: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-ckpt-'));
  dirs.push(dir);
  const file = path.join(dir, 'desk.db');
  const store = await openStore(file, { serving });
  await sql`create table t (id integer primary key, v text not null)`.execute(store.db);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
  const sizeBefore = fs.statSync(file).size;
  // About 2 MB, half of what makes a connection checkpoint for itself.
  for (let i = 0; i < 20; i++)
    await (store.db as unknown as Raw)
      .insertInto('t')
      .values(Array.from({ length: 100 }, (_, j) => ({ v: `${i}.${j} ${'x'.repeat(1000)}` })))
      .execute();
  return { store, file, sizeBefore };
}

async function grows(file: string, from: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (fs.statSync(file).size > from) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('checkpoints on a thread of their own', () => {
  it("copies a server's log into the database file without being asked", async () => {
    const { store, file, sizeBefore } = await storeWithRows(true);
    expect(await grows(file, sizeBefore, 5_000)).toBe(true);
    await store.close();
  });

  it('leaves the log alone in a store that is not serving, short of a thousand pages', async () => {
    const { store, file, sizeBefore } = await storeWithRows(false);
    expect(await grows(file, sizeBefore, 1_000)).toBe(false);
    await store.close();
  });

  it('ends with the store, every write kept', async () => {
    const { store, file } = await storeWithRows(true);
    await store.close();
    const again = await openStore(file);
    const n = await sql<{ n: number }>`select count(*) as n from t`.execute(again.db);
    expect(n.rows[0]!.n).toBe(2_000);
    await again.close();
  });
});
