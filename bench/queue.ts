// npm run bench:queue: how each read's cost grows with the queue. For each queue size it times
// the reads through the full HTTP stack (inject) in this one process, then prints each read's
// cost at the large size over its cost at the small one. SQLite, and PostgreSQL too when
// DESK_BENCH_DATABASE_URL is set.
//
//   npm run bench:queue                       1,000 and 100,000 open rows
//   npm run bench:queue -- --rows 1000000     a larger desk
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sqliteStore, postgresStore, type TestStore } from '../test/helpers/db.ts';
import { harness } from '../test/helpers/app.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '300' } },
});
const SIZES = [1_000, Number(args.rows)];
const ROUNDS = Number(args.rounds);

/** Milliseconds per request at the median. */
async function time(label: string, fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const p = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  const total = samples.reduce((a, b) => a + b, 0);
  console.log(
    `  ${label.padEnd(34)} p50 ${p(0.5).toFixed(2)} ms  p99 ${p(0.99).toFixed(2)} ms  ${(ROUNDS / (total / 1000)).toFixed(0)} req/s`,
  );
  return p(0.5);
}

async function measure(name: string, open: () => Promise<TestStore>, size: number): Promise<Map<string, number>> {
  const store = await open();
  const h = await harness(store);
  const d = await makeDesk(store.db, { grants: ['chase', 'file'] });
  await fill(store, d.desk.id, size);
  const auth = { authorization: `Bearer ${d.key}` };
  const get = async (url: string) => {
    const r = await h.app.inject({ method: 'GET', url, headers: auth });
    if (r.statusCode !== 200) throw new Error(`${url} answered ${r.statusCode}: ${r.body}`);
    return r.json() as { data: { next_cursor: string | null } };
  };
  let cursor: string | null = null;
  for (let i = 0; i < Math.min(200, Math.floor(size / 50 / 2)); i++)
    cursor = (await get(`/api/v1/work?limit=50${cursor ? `&cursor=${cursor}` : ''}`)).data.next_cursor;
  const routes: Array<[string, string]> = [
    ['GET /work?limit=50 (first page)', '/api/v1/work?limit=50'],
    ['GET /work?limit=50 (deep page)', `/api/v1/work?limit=50&cursor=${cursor}`],
    ['GET /me', '/api/v1/me'],
    ['GET /permissions', '/api/v1/permissions'],
    ['GET /arrangements', '/api/v1/arrangements'],
  ];
  console.log(`${name}, ${size.toLocaleString('en')} open rows`);
  const medians = new Map<string, number>();
  try {
    for (const [label, url] of routes) medians.set(label, await time(label, async () => void (await get(url))));
  } finally {
    await h.close();
    await store.close();
  }
  return medians;
}

async function bench(name: string, open: () => Promise<TestStore>): Promise<void> {
  const [small, large] = [await measure(name, open, SIZES[0]!), await measure(name, open, SIZES[1]!)];
  console.log(
    `\n${name}: cost at ${SIZES[1]!.toLocaleString('en')} rows over cost at ${SIZES[0]!.toLocaleString('en')} (median, same run)`,
  );
  for (const [label, ms] of small) console.log(`  ${label.padEnd(34)} ${(large.get(label)! / ms).toFixed(2)}x`);
  console.log('');
}

await bench('sqlite', sqliteStore);
if (process.env.DESK_BENCH_DATABASE_URL) {
  process.env.DESK_TEST_DATABASE_URL = process.env.DESK_BENCH_DATABASE_URL;
  await bench('postgres', postgresStore);
}
