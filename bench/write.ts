// npm run bench:write: where an idempotent snooze's time goes, in one process on SQLite. Sends
// `POST /work/{id}/snooze` through the full HTTP stack (inject), each with its own
// Idempotency-Key, on random rows of a filled desk, and times every SQLite statement it runs.
// Prints each statement's time and count per request, the SQLite total and the whole request.
// The snoozes go one at a time, so each commits alone: under load, the snoozes that arrive
// together share one commit (P-speed-9), which `npm run bench` measures.
//
//   npm run bench:write                       1,000 open rows, 1,000 timed snoozes
//   npm run bench:write -- --rows 100000 --requests 3000
//   npm run bench:write -- --pragma 'synchronous=off'     the same with a pragma set first
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { sqliteStore } from '../test/helpers/db.ts';
import { harness } from '../test/helpers/app.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';
import { randomSnoozes } from './snoozes.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000' },
    requests: { type: 'string', default: '1000' },
    pragma: { type: 'string', multiple: true, default: [] },
  },
});
const ROWS = Number(args.rows);
const N = Number(args.requests);

// Every statement better-sqlite3 runs, timed by its text while `timing` is on.
const statementProto = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
const stats = new Map<string, { n: number; ms: number }>();
let timing = false;
for (const method of ['run', 'all', 'get', 'iterate']) {
  const original = statementProto[method];
  statementProto[method] = function (this: { source: string }, ...a: unknown[]) {
    if (!timing) return original.apply(this, a);
    const t = performance.now();
    const out = original.apply(this, a);
    const s = stats.get(this.source) ?? { n: 0, ms: 0 };
    s.n++;
    s.ms += performance.now() - t;
    stats.set(this.source, s);
    return out;
  };
}

const store = await sqliteStore();
const h = await harness(store);
for (const p of args.pragma) await sql.raw(`pragma ${p}`).execute(store.db);
const d = await makeDesk(store.db, { grants: ['chase', 'file'] });
await fill(store, d.desk.id, ROWS);
const snooze = await randomSnoozes(h, d, 3);
try {
  for (let i = 0; i < 300; i++) await snooze();
  timing = true;
  const began = performance.now();
  for (let i = 0; i < N; i++) await snooze();
  const perRequest = (performance.now() - began) / N;
  timing = false;
  let inSqlite = 0;
  console.log(
    `SQLite, ${ROWS.toLocaleString('en')} open rows, ${N} snoozes${args.pragma.length ? `, pragma ${args.pragma.join(', ')}` : ''}`,
  );
  for (const [text, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms)) {
    inSqlite += s.ms;
    console.log(`${((s.ms / N) * 1000).toFixed(0).padStart(6)} µs  x${(s.n / N).toFixed(2)}  ${text.slice(0, 110)}`);
  }
  console.log(
    `a snooze: ${(perRequest * 1000).toFixed(0)} µs in all, ${((inSqlite / N) * 1000).toFixed(0)} µs of it in SQLite`,
  );
} finally {
  await h.close();
  await store.close();
}
