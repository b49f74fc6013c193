// npm run bench: each read route of the real server (`desk serve` in its own process) against a
// bare Fastify route serving the very same bytes (also its own process), under the same load,
// one after the other in one run. Prints both throughputs, p99, their ratio, how each route's
// cost grows from 1,000 open rows to the large desk, and the server's RSS.
//
//   npm run bench                      SQLite, 1,000 and 100,000 open rows, 3 s a measurement
//   npm run bench -- --rows 1000000    a larger desk
//   npm run bench -- --pg postgres://postgres@127.0.0.1:5432/postgres
//   npm run bench -- --seconds 10 --connections 32
//
// A benchmark, not a test: the absolute figures on a shared machine are noise; read the ratios.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { postgresStore, sqliteStore, type TestStore } from '../test/helpers/db.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    pg: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const SIZES = [1_000, Number(args.rows)];

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

async function load(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

type Figures = Record<string, { desk: number; bare: number; p99: number; bareP99: number }>;

async function measure(
  label: string,
  open: () => Promise<TestStore>,
  size: number,
): Promise<{ figures: Figures; rss: number }> {
  const store = await open();
  const d = await makeDesk(store.db, { grants: ['chase', 'file'] });
  await fill(store, d.desk.id, size);
  const auth = { authorization: `Bearer ${d.key}` };
  const server = await start(
    ['bin/desk.js', 'serve', '--port', '0', '--db', store.target],
    { DESK_LOG_LEVEL: 'silent', DESK_RATE_LIMIT: '100000000' },
    /listening on http:\/\/[^:]+:(\d+)/,
  );
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const firstPage = (await (await fetch(`${base}/work?limit=50`, { headers: auth })).json()) as {
    data: { next_cursor: string };
  };
  const paths = [
    '/',
    '/me',
    '/desk',
    '/work?limit=50',
    `/work?limit=50&cursor=${firstPage.data.next_cursor}`,
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
  const answers = [];
  for (const p of paths) {
    const res = await fetch(`${base}${p}`, { headers: auth });
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    answers.push({ path: `/bare/${answers.length}`, body: await res.text() });
  }
  const file = path.join(os.tmpdir(), `desk-bench-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(answers));
  const bare = await start(['--import', 'tsx', 'bench/bare.ts', file], {}, /listening (\d+)/);
  const figures: Figures = {};
  let rss = 0;
  try {
    for (const [i, p] of paths.entries()) {
      const name = p.startsWith('/work?limit=50&cursor') ? '/work?limit=50 (page 2)' : p;
      const desk = await load(`${base}${p}`, auth);
      rss = Math.max(rss, rssMb(server.proc.pid!));
      const yard = await load(`http://127.0.0.1:${bare.port}/bare/${i}`, {});
      figures[name] = { desk: desk.rps, bare: yard.rps, p99: desk.p99, bareP99: yard.p99 };
      console.log(
        `  ${label} ${size.toLocaleString('en').padStart(9)} rows  ${name.padEnd(26)} desk ${desk.rps.toFixed(0).padStart(6)} req/s p99 ${String(desk.p99).padStart(4)} ms | bare ${yard.rps.toFixed(0).padStart(6)} req/s | ratio ${(desk.rps / yard.rps).toFixed(2)}`,
      );
    }
  } finally {
    await stop(server);
    await stop(bare);
    fs.rmSync(file, { force: true });
    await store.close();
  }
  return { figures, rss };
}

async function run(label: string, open: () => Promise<TestStore>): Promise<void> {
  console.log(`${label}: ${CONNECTIONS} connections, ${SECONDS} s a measurement`);
  const [small, large] = [await measure(label, open, SIZES[0]!), await measure(label, open, SIZES[1]!)];
  console.log(
    `\n${label}: route, ratio to bare at ${SIZES[0]!.toLocaleString('en')} and ${SIZES[1]!.toLocaleString('en')} rows, growth of cost (large/small)`,
  );
  for (const name of Object.keys(small.figures)) {
    const s = small.figures[name]!;
    const l = large.figures[name]!;
    console.log(
      `  ${name.padEnd(26)} ${(s.desk / s.bare).toFixed(2)}  ${(l.desk / l.bare).toFixed(2)}  growth ${(1 / l.desk / (1 / s.desk)).toFixed(2)}x`,
    );
  }
  console.log(
    `  server RSS under load: ${small.rss.toFixed(0)} MB at ${SIZES[0]!.toLocaleString('en')} rows, ${large.rss.toFixed(0)} MB at ${SIZES[1]!.toLocaleString('en')}\n`,
  );
}

await run('sqlite', sqliteStore);
if (args.pg) {
  process.env.DESK_TEST_DATABASE_URL = args.pg;
  await run('postgres', postgresStore);
}
