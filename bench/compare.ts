// npm run bench:compare -- DIR...: the idempotent snooze of two or more builds of Desk side by
// side in one run, to measure what a change buys. Each DIR is a checkout with its dist/ built
// (`npm run build` there); each serves its own copy of one filled SQLite desk, and the loads
// take turns, the order reversed every other round, so the machine's drift falls on all alike.
// Prints each build's median throughput and CPU a snooze, every round's figures, and each
// build's figures over the first's.
//
//   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && npm ci)
//   npm run build && npm run bench:compare -- /tmp/before .
//   npm run bench:compare -- --rows 1000000 --rounds 8 /tmp/before .
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { secretKeyEnv, sqliteStore } from '../test/helpers/db.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';
import {
  CHECKPOINT_SETTLE_MS,
  type Child,
  cpuSeconds,
  median,
  START_FLAGS,
  type SnoozeTarget,
  snoozes,
  start,
  stop,
} from './servers.ts';

const { values: args, positionals: dirs } = parseArgs({
  allowPositionals: true,
  options: {
    rows: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
  },
});
if (dirs.length < 2) throw new Error('Name two or more checkouts to compare, each with its dist/ built.');
for (const dir of dirs)
  if (!fs.existsSync(path.join(dir, 'dist'))) throw new Error(`${dir} has no dist/: run npm run build there first.`);
const SIZE = Number(args.rows);
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);

const store = await sqliteStore();
const d = await makeDesk(store.db, { grants: ['chase', 'file'] });
await fill(store, d.desk.id, SIZE);
const first = await store.db
  .selectFrom('work')
  .select((eb) => eb.fn.min('id').as('id'))
  .where('desk_id', '=', d.desk.id)
  .executeTakeFirstOrThrow();
// Everything in the file itself before it is copied, with its key beside it.
await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
const keyEnv = secretKeyEnv(store.target);
const copies = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-compare-'));
const files = dirs.map((_, i) => {
  const file = path.join(copies, `desk-${i}.db`);
  fs.copyFileSync(store.target, file);
  return file;
});
await store.close();

interface Build {
  dir: string;
  server: Child;
  target: SnoozeTarget;
  rps: number[];
  cpuUs: number[];
}
const builds: Build[] = [];
try {
  for (const [i, dir] of dirs.entries()) {
    const server = await start(
      [...START_FLAGS, path.join(dir, 'bin/desk.js'), 'serve', '--port', '0', '--db', files[i]!],
      { DESK_LOG_LEVEL: 'silent', DESK_RATE_LIMIT: '100000000', ...keyEnv },
      /listening on http:\/\/[^:]+:(\d+)/,
    );
    const target = {
      base: `http://127.0.0.1:${server.port}/api/v1`,
      auth: { authorization: `Bearer ${d.key}` },
      firstRow: Number(first.id),
      size: SIZE,
    };
    builds.push({ dir, server, target, rps: [], cpuUs: [] });
  }
  console.log(
    `${SIZE.toLocaleString('en')} open rows, ${CONNECTIONS} connections, ${SECONDS} s a window after ${args.warmup} s of warm-up, ${ROUNDS} rounds`,
  );
  for (const b of builds) await snoozes(b.target, Number(args.warmup), CONNECTIONS);
  for (let r = 0; r < ROUNDS; r++) {
    for (const b of r % 2 ? [...builds].reverse() : builds) {
      const before = cpuSeconds(b.server.proc.pid!);
      const f = await snoozes(b.target, SECONDS, CONNECTIONS);
      await new Promise((done) => setTimeout(done, CHECKPOINT_SETTLE_MS));
      b.rps.push(f.rps);
      b.cpuUs.push(((cpuSeconds(b.server.proc.pid!) - before) / f.total) * 1e6);
    }
  }
} finally {
  for (const b of builds) await stop(b.server);
  fs.rmSync(copies, { recursive: true, force: true });
}

const [base] = builds;
for (const b of builds) {
  const rps = median(b.rps);
  const cpu = median(b.cpuUs);
  const against =
    b === base
      ? ''
      : `; ${(rps / median(base!.rps)).toFixed(2)}x the first's throughput, ${(cpu / median(base!.cpuUs)).toFixed(2)}x its CPU`;
  console.log(`${b.dir}: ${rps.toFixed(0)} req/s, ${cpu.toFixed(0)} µs of CPU a snooze${against}`);
  console.log(
    `  rounds: ${b.rps.map((x) => x.toFixed(0)).join(' ')} req/s; ${b.cpuUs.map((x) => x.toFixed(0)).join(' ')} µs`,
  );
}
