// npm run bench: how the queue reads scale with its size. For each queue size it times the
// first page, a page deep in a cursor walk, and /me, through the full HTTP stack (inject),
// on SQLite, and on PostgreSQL too when DESK_BENCH_DATABASE_URL is set.
import { performance } from 'node:perf_hooks';
import { sqliteStore, postgresStore, type TestStore } from '../test/helpers/db.ts';
import { harness } from '../test/helpers/app.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';

const SIZES = [1_000, 20_000];
const ROUNDS = 300;

async function time(label: string, fn: () => Promise<void>): Promise<void> {
  for (let i = 0; i < 20; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const p = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(2);
  const total = samples.reduce((a, b) => a + b, 0);
  console.log(
    `  ${label.padEnd(34)} p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  ${(ROUNDS / (total / 1000)).toFixed(0)} req/s`,
  );
}

async function bench(name: string, open: () => Promise<TestStore>): Promise<void> {
  for (const size of SIZES) {
    const store = await open();
    const h = await harness(store);
    const d = await makeDesk(store.db);
    await fill(store, d.desk.id, size);
    const auth = { authorization: `Bearer ${d.key}` };
    const get = async (url: string) => {
      const r = await h.app.inject({ method: 'GET', url, headers: auth });
      if (r.statusCode !== 200) throw new Error(`${url} answered ${r.statusCode}: ${r.body}`);
      return r.json() as { data: { next_cursor: string | null } };
    };
    let cursor: string | null = null;
    for (let i = 0; i < Math.floor(size / 50 / 2); i++)
      cursor = (await get(`/api/v1/work?limit=50${cursor ? `&cursor=${cursor}` : ''}`)).data.next_cursor;
    const deep = cursor;
    console.log(`${name}, ${size.toLocaleString('en')} open rows`);
    await time('GET /work?limit=50 (first page)', async () => void (await get('/api/v1/work?limit=50')));
    await time(
      'GET /work?limit=50 (mid-walk page)',
      async () => void (await get(`/api/v1/work?limit=50&cursor=${deep}`)),
    );
    await time('GET /me', async () => void (await get('/api/v1/me')));
    await h.close();
    await store.close();
  }
}

await bench('sqlite', sqliteStore);
if (process.env.DESK_BENCH_DATABASE_URL) {
  process.env.DESK_TEST_DATABASE_URL = process.env.DESK_BENCH_DATABASE_URL;
  await bench('postgres', postgresStore);
}
