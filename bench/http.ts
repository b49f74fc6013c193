// npm run bench: each read route of the real server (`desk serve` in its own process) against a
// bare Fastify route serving the very same bytes (also its own process), under the same load,
// one after the other in one run. Prints both throughputs, p99, their ratio, how each route's
// cost grows from 1,000 open rows to the large desk, and the server's RSS.
//
//   npm run bench                      SQLite, 1,000 and 100,000 open rows, 3 s a measurement
//   npm run bench -- --rows 1000000    a larger desk
//   npm run bench -- --pg postgres://postgres@127.0.0.1:5432/postgres     and PostgreSQL (--pg-only: that alone)
//   npm run bench -- --seconds 10 --connections 32
//   npm run bench -- --only /me,/work?limit=50 --no-writes     some reads alone, no snooze load
//
// The work pass has its own: npm run bench:pass (bench/pass.ts).
//
// A benchmark, not a test: the absolute figures on a shared machine are noise; read the ratios.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { postgresStore, secretKeyEnv, sqliteStore, type TestStore } from '../test/helpers/db.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    pg: { type: 'string' },
    'pg-only': { type: 'boolean', default: false },
    only: { type: 'string' },
    'no-writes': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const SIZES = [1_000, Number(args.rows)];
/** --only: the paths to measure, as PATHS writes them ('PAGE2' for the second page of /work). */
const ONLY = args.only?.split(',');
/** Node's flags for the server, as `npm start` gives them. */
const START_FLAGS = (JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start as string)
  .split(/\s+/)
  .filter((w) => w.startsWith('--'));

interface Child {
  proc: ChildProcess;
  port: number;
}

function start(argv: string[], env: Record<string, string>, ready: RegExp): Promise<Child> {
  const proc = spawn(process.execPath, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${output}`)), 60_000);
    const check = (chunk: Buffer) => {
      output += chunk;
      const m = ready.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, port: Number(m[1]) });
      }
    };
    proc.stdout!.on('data', check);
    proc.stderr!.on('data', (c) => (output += c));
    proc.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

function stop(c: Child): Promise<void> {
  return new Promise((resolve) => {
    if (c.proc.exitCode !== null) return resolve();
    c.proc.removeAllListeners('exit');
    c.proc.once('exit', () => resolve());
    c.proc.kill('SIGTERM');
  });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Snoozes of random rows, each with its own Idempotency-Key: a write per request. */
async function snoozes(d: Desk, rows: number) {
  const r = await autocannon({
    url: d.base,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { ...d.auth, 'content-type': 'application/json' },
    body: '{"days":1}',
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          path: `/api/v1/work/${1 + Math.floor(Math.random() * rows)}/snooze`,
          headers: { ...req.headers, 'idempotency-key': randomUUID() },
        }),
      },
    ],
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`snooze: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

async function load(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

interface Desk {
  store: TestStore;
  server: Child;
  /** Milliseconds from starting `desk serve` on the filled database to its first answer with the key. */
  startMs: number;
  base: string;
  auth: Record<string, string>;
  answers: string[];
}

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

/** A fresh database with a desk of `size` open rows, the real server on it, and its answer to each path. */
async function deskOf(open: () => Promise<TestStore>, size: number): Promise<Desk & { paths: string[] }> {
  const store = await open();
  const d = await makeDesk(store.db, { grants: ['chase', 'file'] });
  await fill(store, d.desk.id, size);
  const auth = { authorization: `Bearer ${d.key}` };
  const began = performance.now();
  const server = await start(
    [...START_FLAGS, 'bin/desk.js', 'serve', '--port', '0', '--db', store.target],
    { DESK_LOG_LEVEL: 'silent', DESK_RATE_LIMIT: '100000000', ...secretKeyEnv(store.target) },
    /listening on http:\/\/[^:]+:(\d+)/,
  );
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  while ((await fetch(`${base}/`, { headers: auth })).status !== 200);
  const startMs = performance.now() - began;
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
  return { store, server, startMs, base, auth, answers, paths };
}

async function run(label: string, open: () => Promise<TestStore>): Promise<void> {
  console.log(`${label}: ${CONNECTIONS} connections, ${SECONDS} s a measurement`);
  // Both desks are up at once and each route is measured on both, and on the bare route, one
  // right after the other, so a change in the machine's load between routes moves all four.
  const small = await deskOf(open, SIZES[0]!);
  const large = await deskOf(open, SIZES[1]!);
  const file = path.join(os.tmpdir(), `desk-bench-${process.pid}.json`);
  const bareAnswers = [small, large].flatMap((d, k) => d.answers.map((body, i) => ({ path: `/bare/${k}/${i}`, body })));
  fs.writeFileSync(file, JSON.stringify(bareAnswers));
  const bare = await start(['--import', 'tsx', 'bench/bare.ts', file], {}, /listening (\d+)/);
  const rss = [0, 0];
  const rows: string[] = [];
  const writes: Array<{ rps: number; p99: number }> = [];
  try {
    for (const [i, p] of PATHS.entries()) {
      if (ONLY && !ONLY.includes(p === 'PAGE2' ? 'PAGE2' : p)) continue;
      const name = p === 'PAGE2' ? '/work?limit=50 (page 2)' : p;
      const figures = [];
      for (const [k, d] of [small, large].entries()) {
        const desk = await load(`${d.base}${d.paths[i]}`, d.auth);
        rss[k] = Math.max(rss[k]!, rssMb(d.server.proc.pid!));
        const yard = await load(`http://127.0.0.1:${bare.port}/bare/${k}/${i}`, {});
        figures.push({ desk, yard });
        console.log(
          `  ${label} ${SIZES[k]!.toLocaleString('en').padStart(9)} rows  ${name.padEnd(26)} desk ${desk.rps.toFixed(0).padStart(6)} req/s p99 ${String(desk.p99).padStart(4)} ms | bare ${yard.rps.toFixed(0).padStart(6)} req/s | ratio ${(desk.rps / yard.rps).toFixed(2)}`,
        );
      }
      const [s, l] = figures as [(typeof figures)[0], (typeof figures)[0]];
      rows.push(
        `| \`${name}\` | ${(s.desk.rps / s.yard.rps).toFixed(2)} | ${(l.desk.rps / l.yard.rps).toFixed(2)} | ${(s.desk.rps / l.desk.rps).toFixed(2)}x | ${s.desk.p99} / ${l.desk.p99} ms |`,
      );
    }
    for (const [k, d] of [small, large].entries()) {
      if (args['no-writes']) break;
      const w = await snoozes(d, SIZES[k]!);
      rss[k] = Math.max(rss[k]!, rssMb(d.server.proc.pid!));
      writes.push(w);
      console.log(
        `  ${label} ${SIZES[k]!.toLocaleString('en').padStart(9)} rows  ${'POST /work/{id}/snooze'.padEnd(26)} desk ${w.rps.toFixed(0).padStart(6)} req/s p99 ${String(w.p99).padStart(4)} ms`,
      );
    }
  } finally {
    for (const d of [small, large]) await stop(d.server);
    await stop(bare);
    fs.rmSync(file, { force: true });
    for (const d of [small, large]) await d.store.close();
  }
  const [a, b] = SIZES.map((n) => n.toLocaleString('en'));
  console.log(`\n${label}: ratio to bare Fastify at ${a} and ${b} open rows; growth = cost at ${b} over cost at ${a}`);
  console.log(`| route | ratio, ${a} | ratio, ${b} | growth | p99, ${a} / ${b} |`);
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  const [ws, wl] = writes as [(typeof writes)[0], (typeof writes)[0]];
  if (ws && wl)
    console.log(
      `idempotent snooze, each request its own key: ${ws.rps.toFixed(0)} req/s (p99 ${ws.p99} ms) at ${a} rows, ${wl.rps.toFixed(0)} req/s (p99 ${wl.p99} ms) at ${b}`,
    );
  console.log(
    `desk serve, start to first answer: ${small.startMs.toFixed(0)} ms at ${a} rows, ${large.startMs.toFixed(0)} ms at ${b}`,
  );
  console.log(`server RSS under load: ${rss[0]!.toFixed(0)} MB at ${a} rows, ${rss[1]!.toFixed(0)} MB at ${b}\n`);
}

if (!args['pg-only']) await run('sqlite', sqliteStore);
if (args.pg) {
  process.env.DESK_TEST_DATABASE_URL = args.pg;
  await run('postgres', postgresStore);
}
console.log(
  'The queue reads in one process: npm run bench:queue. The work pass against the queue: npm run bench:pass.',
);
