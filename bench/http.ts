// npm run bench: each read route of the real server (`desk serve` in its own process) against a
// bare Fastify route serving the very same bytes (also its own process), under the same load,
// side by side in one run. Prints both throughputs, p99, their ratio, how each route's cost
// grows from 1,000 open rows to the large desk, an idempotent snooze's throughput, the time
// `desk serve` takes to answer, and the servers' RSS; with --pg, the same on PostgreSQL, its
// cost against SQLite's and the transactions it asks of PostgreSQL a request.
//
//   npm run bench                      SQLite, 1,000 and 100,000 open rows
//   npm run bench -- --rows 1000000    a larger desk
//   npm run bench -- --pg postgres://postgres@127.0.0.1:5432/postgres     and PostgreSQL (--pg-only: that alone)
//   npm run bench -- --seconds 3 --rounds 5 --connections 32 --warmup 1 --write-warmup 10
//   npm run bench -- --only /me,/work?limit=50 --no-writes     some reads alone, no snooze load
//
// The work pass has its own: npm run bench:pass (bench/pass.ts).
//
// A benchmark, not a test: the absolute figures on a shared machine are noise; read the ratios.
// Every measurement follows a warm-up, and each is made `--rounds` times, every desk and its
// bare route one right after the other; the figures printed are the medians.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { postgresStore, secretKeyEnv, sqliteStore, type TestStore } from '../test/helpers/db.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';
import {
  CHECKPOINT_SETTLE_MS,
  type Child,
  cpuSeconds,
  type Figure,
  median,
  START_FLAGS,
  snoozes,
  start,
  stop,
} from './servers.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '1' },
    'write-warmup': { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    pg: { type: 'string' },
    'pg-only': { type: 'boolean', default: false },
    only: { type: 'string' },
    'no-writes': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
/** The write path is code the reads never ran: it takes longer to reach its steady speed. */
const WRITE_WARMUP = Number(args['write-warmup']);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const SIZES = [1_000, Number(args.rows)];
/** --only: the paths to measure, as PATHS writes them ('PAGE2' for the second page of /work). */
const ONLY = args.only?.split(',');
// The server measured is the one `npm start` runs, the compiled program in dist/. Sources edited
// since the last build would have bin/desk.js run them through tsx instead, which starts slower
// and holds more memory than the program shipped: so the bench builds first.
console.log('Building dist/ first, so the server measured is the compiled one `npm start` runs.');
execFileSync('npm', ['run', '--silent', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });

const PATHS = [
  '/',
  '/me',
  '/desk',
  '/work?limit=50',
  'PAGE2',
  '/work/2',
  '/arrangements',
  '/units',
  '/connections',
  '/domains',
  '/permissions',
  '/watches',
  '/activity',
  '/events',
];
for (const p of ONLY ?? []) {
  if (!PATHS.includes(p)) throw new Error(`--only: no such path ${p}; the paths are ${PATHS.join(', ')}`);
}
const routeName = (p: string) => (p === 'PAGE2' ? '/work?limit=50 (page 2)' : p);

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Figure> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99, total: r.requests.total };
}

/** A desk of one size on one database, the real server on it, and its answer to each path. */
interface Target {
  dialect: 'sqlite' | 'postgres';
  size: number;
  store: TestStore;
  server: Child;
  /** Milliseconds from starting `desk serve` on the filled database to its first answer with the key. */
  startMs: number;
  base: string;
  auth: Record<string, string>;
  paths: string[];
  answers: string[];
  firstRow: number;
  /** Largest RSS of the server over the run (VmHWM), read before it stops. */
  peakRss: number;
  /** Read requests answered, and (PostgreSQL) the transactions committed before they began. */
  reads: number;
  committedBefore: number;
  committedAfter?: number;
}

/** Starts of `desk serve` timed on each filled database; the median is reported. */
const START_TRIES = 3;

const label = (t: Target) => `${t.dialect.padEnd(8)} ${t.size.toLocaleString('en').padStart(9)} rows`;

async function targetOf(dialect: Target['dialect'], size: number): Promise<Target> {
  const store = await (dialect === 'sqlite' ? sqliteStore() : postgresStore());
  const d = await makeDesk(store.db, { grants: ['chase', 'file'] });
  await fill(store, d.desk.id, size);
  const first = await store.db
    .selectFrom('work')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('desk_id', '=', d.desk.id)
    .executeTakeFirstOrThrow();
  const auth = { authorization: `Bearer ${d.key}` };
  // The fill's pages still being written out to the disk are not the server's start.
  execFileSync('sync');
  const starts: number[] = [];
  let server: Child | undefined;
  let base = '';
  for (let n = 0; n < START_TRIES; n++) {
    if (server) await stop(server);
    const began = performance.now();
    server = await start(
      [...START_FLAGS, 'bin/desk.js', 'serve', '--port', '0', '--db', store.target],
      { DESK_LOG_LEVEL: 'silent', DESK_RATE_LIMIT: '100000000', ...secretKeyEnv(store.target) },
      /listening on http:\/\/[^:]+:(\d+)/,
    );
    base = `http://127.0.0.1:${server.port}/api/v1`;
    while ((await fetch(`${base}/`, { headers: auth })).status !== 200);
    starts.push(performance.now() - began);
  }
  const startMs = median(starts);
  const firstPage = (await (await fetch(`${base}/work?limit=50`, { headers: auth })).json()) as {
    data: { next_cursor: string };
  };
  const paths = PATHS.map((p) => (p === 'PAGE2' ? `/work?limit=50&cursor=${firstPage.data.next_cursor}` : p));
  const answers = [];
  for (const p of paths) {
    const res = await fetch(`${base}${p}`, { headers: auth });
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    answers.push(await res.text());
  }
  return {
    dialect,
    size,
    store,
    server: server!,
    startMs,
    base,
    auth,
    paths,
    answers,
    firstRow: Number(first.id),
    peakRss: 0,
    reads: 0,
    committedBefore: 0,
  };
}

/** Transactions PostgreSQL has committed in a target's database, as its statistics say. */
async function committed(t: Target): Promise<number> {
  const c = new pg.Client({ connectionString: t.store.target });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>(
      'select xact_commit::text as n from pg_stat_database where datname = current_database()',
    );
    return Number(r.rows[0]!.n);
  } finally {
    await c.end();
  }
}

const dialects: Target['dialect'][] = [
  ...(args['pg-only'] ? [] : ['sqlite' as const]),
  ...(args.pg ? ['postgres' as const] : []),
];
if (args.pg) process.env.DESK_TEST_DATABASE_URL = args.pg;
if (dialects.length === 0) throw new Error('--pg-only needs --pg URL');

console.log(
  `${CONNECTIONS} connections, ${SECONDS} s a measurement after ${WARMUP} s of warm-up (${WRITE_WARMUP} s for writes), ${ROUNDS} rounds; medians`,
);
const targets: Target[] = [];
for (const dialect of dialects) for (const size of SIZES) targets.push(await targetOf(dialect, size));
const file = path.join(os.tmpdir(), `desk-bench-${process.pid}.json`);
fs.writeFileSync(
  file,
  JSON.stringify(targets.flatMap((t, k) => t.answers.map((body, i) => ({ path: `/bare/${k}/${i}`, body })))),
);
const bare = await start(['--import', 'tsx', 'bench/bare.ts', file], {}, /listening (\d+)/);
const bareUrl = (k: number, i: number) => `http://127.0.0.1:${bare.port}/bare/${k}/${i}`;

/**
 * Gives the bare route the desk's answer as it is now. The desk's passes act while the run goes
 * on, and each act adds to `/activity` and `/events`: half an hour in, their answers are tens of
 * times the size they were at the start, and a yardstick still serving the first bytes would
 * measure a smaller answer than the desk's.
 */
async function inStep(t: Target, k: number, i: number): Promise<void> {
  const res = await fetch(`${t.base}${t.paths[i]}`, { headers: t.auth });
  if (res.status !== 200) throw new Error(`${t.paths[i]} answered ${res.status}`);
  const put = await fetch(`http://127.0.0.1:${bare.port}/answers`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: `/bare/${k}/${i}`, body: await res.text() }),
  });
  if (put.status !== 204) throw new Error(`the bare route took no new answer for ${t.paths[i]}: ${put.status}`);
}

interface RouteFigures {
  route: string;
  /** Per target: medians of desk, bare and their ratio. */
  of: Array<{ desk: number; bare: number; ratio: number; p99: number; ratios: number[] }>;
}
const results: RouteFigures[] = [];
const writes: Figure[] = [];

/** The transactions PostgreSQL committed for the read phase, over the read requests answered. */
const perRead = (t: Target) =>
  t.committedAfter === undefined ? '?' : ((t.committedAfter - t.committedBefore) / t.reads).toFixed(3);

try {
  for (const t of targets) if (t.dialect === 'postgres') t.committedBefore = await committed(t);
  for (const [i, p] of PATHS.entries()) {
    if (ONLY && !ONLY.includes(p)) continue;
    const rounds = targets.map(() => [] as Array<{ desk: Figure; bare: Figure }>);
    for (const [k, t] of targets.entries()) {
      await inStep(t, k, i);
      t.reads += (await load(`${t.base}${t.paths[i]}`, t.auth, WARMUP)).total;
      await load(bareUrl(k, i), {}, WARMUP);
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, t] of targets.entries()) {
        await inStep(t, k, i);
        const desk = await load(`${t.base}${t.paths[i]}`, t.auth, SECONDS);
        t.reads += desk.total;
        const yard = await load(bareUrl(k, i), {}, SECONDS);
        rounds[k]!.push({ desk, bare: yard });
      }
    }
    const of = targets.map((_, k) => {
      const rs = rounds[k]!;
      return {
        desk: median(rs.map((x) => x.desk.rps)),
        bare: median(rs.map((x) => x.bare.rps)),
        ratio: median(rs.map((x) => x.desk.rps / x.bare.rps)),
        p99: median(rs.map((x) => x.desk.p99)),
        ratios: rs.map((x) => x.desk.rps / x.bare.rps),
      };
    });
    results.push({ route: routeName(p), of });
    for (const [k, t] of targets.entries()) {
      const f = of[k]!;
      console.log(
        `  ${label(t)}  ${routeName(p).padEnd(26)} desk ${f.desk.toFixed(0).padStart(6)} req/s p99 ${String(f.p99).padStart(4)} ms | bare ${f.bare.toFixed(0).padStart(6)} req/s | ratio ${f.ratio.toFixed(2)}`,
      );
    }
  }
  if (targets.some((t) => t.dialect === 'postgres')) {
    // A server connection's statistics reach pg_stat_database once it has been idle 10 s.
    await new Promise((r) => setTimeout(r, 11_000));
    for (const t of targets) if (t.dialect === 'postgres') t.committedAfter = (await committed(t)) - 1;
  }
  if (!args['no-writes']) {
    for (const t of targets) await snoozes(t, WRITE_WARMUP, CONNECTIONS);
    const rounds = targets.map(() => [] as Figure[]);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, t] of targets.entries()) {
        const before = cpuSeconds(t.server.proc.pid!);
        const f = await snoozes(t, SECONDS, CONNECTIONS);
        // The checkpoint thread copies the last writes' pages shortly after them: part of their cost.
        await new Promise((r) => setTimeout(r, CHECKPOINT_SETTLE_MS));
        rounds[k]!.push({ ...f, cpuUs: ((cpuSeconds(t.server.proc.pid!) - before) / f.total) * 1e6 });
      }
    }
    for (const [k, t] of targets.entries()) {
      const w = {
        rps: median(rounds[k]!.map((x) => x.rps)),
        p99: median(rounds[k]!.map((x) => x.p99)),
        total: 0,
        cpuUs: median(rounds[k]!.map((x) => x.cpuUs!)),
      };
      writes.push(w);
      console.log(
        `  ${label(t)}  ${'POST /work/{id}/snooze'.padEnd(26)} desk ${w.rps.toFixed(0).padStart(6)} req/s p99 ${String(w.p99).padStart(4)} ms | ${w.cpuUs.toFixed(0)} µs of CPU a snooze`,
      );
    }
  }
  for (const t of targets) t.peakRss = peakRssMb(t.server.proc.pid!);
} finally {
  for (const t of targets) await stop(t.server);
  await stop(bare);
  fs.rmSync(file, { force: true });
  for (const t of targets) await t.store.close();
}

const [a, b] = SIZES.map((n) => n.toLocaleString('en'));
/**
 * How much more a request costs on the large desk: per round, the small desk's ratio to its bare
 * route over the large desk's, each measured beside its own yardstick, so the machine's drift
 * between the two measurements cancels; the median over the rounds.
 */
const growth = (small: number[], large: number[]) => median(small.map((r, i) => r / large[i]!));
for (const dialect of dialects) {
  const [s, l] = [0, 1].map((j) => targets.findIndex((t) => t.dialect === dialect && t.size === SIZES[j])) as [
    number,
    number,
  ];
  console.log(
    `\n${dialect}: ratio to bare Fastify at ${a} and ${b} open rows; growth = cost at ${b} over cost at ${a}, each against its bare route in the same round`,
  );
  console.log(`| route | ratio, ${a} | ratio, ${b} | growth | p99, ${a} / ${b} |`);
  console.log('|---|---|---|---|---|');
  for (const r of results) {
    const [x, y] = [r.of[s]!, r.of[l]!];
    console.log(
      `| \`${r.route}\` | ${x.ratio.toFixed(2)} | ${y.ratio.toFixed(2)} | ${growth(x.ratios, y.ratios).toFixed(2)}x | ${x.p99} / ${y.p99} ms |`,
    );
  }
  if (dialect === 'postgres' && results.length > 0)
    console.log(
      `PostgreSQL transactions a read request, over every read above (${CONNECTIONS} connections): ${perRead(targets[s]!)} at ${a} rows, ${perRead(targets[l]!)} at ${b}`,
    );
  const [ws, wl] = [writes[s], writes[l]];
  if (ws && wl)
    console.log(
      `idempotent snooze, each request its own key: ${ws.rps.toFixed(0)} req/s (p99 ${ws.p99} ms) at ${a} rows, ${wl.rps.toFixed(0)} req/s (p99 ${wl.p99} ms) at ${b}; growth ${(ws.rps / wl.rps).toFixed(2)}x; the server's CPU a snooze, every thread: ${ws.cpuUs!.toFixed(0)} µs at ${a} rows, ${wl.cpuUs!.toFixed(0)} µs at ${b}; growth ${(wl.cpuUs! / ws.cpuUs!).toFixed(2)}x`,
    );
  console.log(
    `desk serve, start to first answer (median of ${START_TRIES} starts): ${targets[s]!.startMs.toFixed(0)} ms at ${a} rows, ${targets[l]!.startMs.toFixed(0)} ms at ${b}`,
  );
  console.log(
    `server RSS, largest over the run (VmHWM): ${targets[s]!.peakRss.toFixed(0)} MB at ${a} rows, ${targets[l]!.peakRss.toFixed(0)} MB at ${b}`,
  );
}
if (dialects.length === 2) {
  console.log(`\nPostgreSQL's cost over SQLite's, measured side by side (SQLite req/s over PostgreSQL req/s)`);
  console.log(`| route | ${a} | ${b} |`);
  console.log('|---|---|---|');
  const at = (dialect: string, size: number) => targets.findIndex((t) => t.dialect === dialect && t.size === size);
  for (const r of results) {
    const cost = (size: number) => (r.of[at('sqlite', size)]!.desk / r.of[at('postgres', size)]!.desk).toFixed(2);
    console.log(`| \`${r.route}\` | ${cost(SIZES[0]!)}x | ${cost(SIZES[1]!)}x |`);
  }
  const ws = (size: number) => writes[at('sqlite', size)];
  const wp = (size: number) => writes[at('postgres', size)];
  if (ws(SIZES[0]!) && wp(SIZES[0]!))
    console.log(
      `| snooze | ${(ws(SIZES[0]!)!.rps / wp(SIZES[0]!)!.rps).toFixed(2)}x | ${(ws(SIZES[1]!)!.rps / wp(SIZES[1]!)!.rps).toFixed(2)}x |`,
    );
}
console.log(
  '\nThe queue reads in one process: npm run bench:queue. The work pass against the queue: npm run bench:pass.',
);
