// npm run bench:pass: the cost of a work pass against the size of the queue (issue 17). Two desks
// on one fresh database, a small one and a large one, each with exactly ten rows due for action
// (granted `reach_out`, overdue, someone to write to) and every other row open but out of reach.
// Each round passes over the small desk then the large one through runWorkPass, the very call
// `desk serve` makes, each pass sending its ten messages to a loopback SMTP server; then the ten
// rows are put back and the clock moves on a day, so every pass finds ten rows due again. It
// also times the pass's reads alone (the rails' count and the rows in reach), alternating the
// desks. Prints both medians and their ratio.
//
//   npm run bench:pass                        1,000 and 1,000,000 open rows, SQLite
//   npm run bench:pass -- --rows 200000       a smaller large desk
//   npm run bench:pass -- --pg postgres://postgres@127.0.0.1:5432/postgres
//
// A benchmark, not a test: the absolute figures on a shared machine are noise; read the ratios.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { realEngine } from '../src/container.ts';
import { runWorkPass } from '../src/app/work/pass.ts';
import { FixedClock } from '../src/domain/clock.ts';
import type { Deps } from '../src/domain/context.ts';
import { addDays, dateIn } from '../src/domain/dates.ts';
import { writeRails } from '../src/domain/desks/rails.ts';
import { countActedSince, passPage } from '../src/store/repositories/pass.ts';
import { insertWorkMany, moveWork } from '../src/store/repositories/work.ts';
import { TEST_NOW } from '../test/helpers/app.ts';
import { postgresStore, sqliteStore, type TestStore } from '../test/helpers/db.ts';
import { makeDesk, workValues } from '../test/helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../test/helpers/smtp.ts';
import { connectMailbox } from '../test/http/writes-helpers.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '20' },
    reads: { type: 'string', default: '200' },
    pg: { type: 'string' },
  },
});
const SIZES = [1_000, Number(args.rows)] as const;
const ROUNDS = Number(args.rounds);
const READS = Number(args.reads);
const GRANTS = ['reach_out', 'file'];
const DUE = 10;
const HOUR = 3600_000;

interface BenchDesk {
  id: string;
  slug: string;
  due: number[];
  size: number;
}

/** `n` open rows, ten of them due; the rest in a granted class but far ahead, or in one not granted. */
async function desk(store: TestStore, smtpPort: number, n: number): Promise<BenchDesk> {
  const d = await makeDesk(store.db, { grants: GRANTS });
  await connectMailbox(store.db, d.desk.id, smtpPort);
  await writeRails(store.db, d.desk.id, { hours: 'always', daily_cap: 1000 });
  const today = dateIn('UTC', new Date(TEST_NOW));
  const CHUNK = 50_000;
  for (let start = 0; start < n - DUE; start += CHUNK) {
    const rows: ReturnType<typeof workValues>[] = [];
    for (let i = start; i < Math.min(n - DUE, start + CHUNK); i++) {
      const cls = ['reach_out', 'file', 'chase', null][i % 4] ?? null;
      const granted = cls !== null && GRANTS.includes(cls);
      rows.push(
        workValues(d.desk.id, {
          title: `Row ${i}`,
          kind: i % 2 ? 'filing' : 'licence_renewal',
          class: cls,
          // A granted row is dated past the pass's reach for the whole run; others may be undated.
          due_date: granted || i % 5 ? addDays(today, 400 + (i % 700)) : null,
          priority: 1 + (i % 100),
          status: i % 7 === 0 ? 'waiting' : 'open',
          waiting_on: i % 7 === 0 ? 'Sam' : null,
          waiting_since: i % 7 === 0 ? TEST_NOW : null,
          contact_name: 'Sam',
          contact_email: 'sam@example.test',
        }),
      );
    }
    await store.db.transaction().execute((trx) => insertWorkMany(trx, rows));
  }
  const due: number[] = [];
  for (let i = 0; i < DUE; i++) {
    const values = workValues(d.desk.id, {
      title: `Due ${i}`,
      class: 'reach_out',
      due_date: addDays(today, -1),
      priority: 90,
      contact_name: `Due ${i}`,
      contact_email: `due${i}@pass.bench`,
    });
    await insertWorkMany(store.db, [values]);
    const row = await store.db
      .selectFrom('work')
      .select('id')
      .where('desk_id', '=', d.desk.id)
      .where('title', '=', values.title)
      .executeTakeFirstOrThrow();
    due.push(row.id);
  }
  return { id: d.desk.id, slug: d.desk.slug, due, size: n };
}

/** Puts the acted rows back as they were, so the next pass finds them due again. */
async function reset(store: TestStore, d: BenchDesk): Promise<void> {
  for (const id of d.due) {
    const row = await store.db.selectFrom('work').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    await moveWork(store.db, d.id, id, row.status, 'open', {
      desk_acted_at: null,
      waiting_on: null,
      waiting_since: null,
      closed_at: null,
      last_error: null,
      chases: 0,
    });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function run(label: string, open: () => Promise<TestStore>): Promise<void> {
  const store = await open();
  const smtp: TestSmtp = await startSmtpServer();
  try {
    const t0 = performance.now();
    const small = await desk(store, smtp.port, SIZES[0]);
    const large = await desk(store, smtp.port, SIZES[1]);
    // The planner's statistics, as autovacuum would have them on a desk this size.
    if (label === 'postgres') await sql`analyze`.execute(store.db);
    console.log(`${label}: filled ${SIZES[0] + SIZES[1]} rows in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const config = loadConfig({ DESK_DATABASE_URL: store.target });
    const clock = new FixedClock(new Date(TEST_NOW));
    const deps: Deps = { store, clock, config, engine: realEngine(config) };
    const passes = new Map<BenchDesk, number[]>([
      [small, []],
      [large, []],
    ]);
    // Two rounds to warm up, then ROUNDS measured.
    for (let round = 0; round < ROUNDS + 2; round++) {
      for (const d of [small, large]) {
        const t = performance.now();
        const r = await runWorkPass(deps, { desk: d.slug });
        const ms = performance.now() - t;
        const acts = r.desks[0]?.acts.filter((a) => a.ok).length ?? 0;
        if (acts !== DUE || r.failures.length)
          throw new Error(`the pass over ${d.size} rows acted on ${acts} rows: ${JSON.stringify(r)}`);
        if (round >= 2) passes.get(d)!.push(ms);
      }
      for (const d of [small, large]) await reset(store, d);
      // A day and an hour on: past the 24-hour rules on the row and on each address.
      clock.advance(25 * HOUR);
    }

    const reads = new Map<BenchDesk, number[]>([
      [small, []],
      [large, []],
    ]);
    const today = dateIn('UTC', clock.now());
    const horizon = addDays(today, 14);
    for (let i = 0; i < READS + 20; i++) {
      for (const d of [small, large]) {
        const t = performance.now();
        await countActedSince(store.db, d.id, `${today}T00:00:00.000Z`);
        let found = 0;
        for (const cls of GRANTS) {
          found += (await passPage(store.db, d.id, { kind: 'due', cls, horizon }, null, 200)).length;
          found += (await passPage(store.db, d.id, { kind: 'undated', cls }, null, 200)).length;
        }
        const ms = performance.now() - t;
        if (found !== DUE) throw new Error(`the reads over ${d.size} rows found ${found} rows in reach`);
        if (i >= 20) reads.get(d)!.push(ms);
      }
    }

    const [a, b] = SIZES.map((n) => n.toLocaleString('en'));
    const line = (what: string, m: Map<BenchDesk, number[]>) => {
      const [x, y] = [median(m.get(small)!), median(m.get(large)!)];
      console.log(`| ${what} | ${x.toFixed(2)} ms | ${y.toFixed(2)} ms | ${(y / x).toFixed(2)}x |`);
    };
    console.log(`\n${label}: medians, ${DUE} rows due on each desk; ratio = ${b} rows over ${a}`);
    console.log(`| measured | ${a} open rows | ${b} open rows | ratio |`);
    console.log('|---|---|---|---|');
    line(`whole pass, ${DUE} acts (${ROUNDS} rounds)`, passes);
    line(`the pass's reads only (${READS} rounds)`, reads);
    console.log(`messages received by the SMTP server: ${smtp.received.length}\n`);
  } finally {
    await smtp.close();
    await store.close();
  }
}

await run('sqlite', sqliteStore);
if (args.pg) {
  process.env.DESK_TEST_DATABASE_URL = args.pg;
  await run('postgres', postgresStore);
}
