// npm run bench:pages: which tables and indexes one idempotent snooze writes, on SQLite. Fills a
// fresh desk, then sends `POST /work/{id}/snooze` on random rows (full HTTP stack, inject), one
// at a time with the log emptied before each, and reads the pages each commit appended to the
// write-ahead log; `dbstat` names the table or index each page belongs to. Prints the pages a
// snooze writes, in all and by table or index ("new" for pages the file did not have before).
// The snoozes of one turn share a commit under load (P-speed-9), and with it the pages they
// have in common: at 1,000 rows nearly all of them, at 1,000,000 only the appends.
//
//   npm run bench:pages                        1,000 open rows, 30 snoozes
//   npm run bench:pages -- --rows 1000000 --snoozes 50
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { harness } from '../test/helpers/app.ts';
import { sqliteStore } from '../test/helpers/db.ts';
import { makeDesk } from '../test/helpers/factories.ts';
import { fill } from './fill.ts';
import { randomSnoozes } from './snoozes.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000' },
    snoozes: { type: 'string', default: '30' },
  },
});
const ROWS = Number(args.rows);
const N = Number(args.snoozes);
/** Snoozes before counting: the first ones also write what the desk's first write does. */
const WARM = 5;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

const store = await sqliteStore();
const h = await harness(store);
try {
  const d = await makeDesk(store.db, { grants: ['chase', 'file'] });
  await fill(store, d.desk.id, ROWS);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);

  const reader = new SQLite(store.target, { readonly: true });
  const pageSize = reader.pragma('page_size', { simple: true }) as number;
  const owner = new Map<number, string>();
  for (const r of reader.prepare('select name, pageno from dbstat').all() as { name: string; pageno: number }[])
    owner.set(r.pageno, r.name);
  reader.close();

  const snooze = await randomSnoozes(h, d, 1);
  const byTree = new Map<string, number>();
  let frames = 0;
  let pages = 0;
  for (let i = 0; i < WARM + N; i++) {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    await snooze();
    if (i < WARM) continue;
    const wal = fs.readFileSync(`${store.target}-wal`);
    const written = new Set<number>();
    for (let at = WAL_HEADER; at + FRAME_HEADER <= wal.length; at += FRAME_HEADER + pageSize) {
      written.add(wal.readUInt32BE(at));
      frames++;
    }
    pages += written.size;
    for (const p of written) {
      const name = owner.get(p) ?? 'new';
      byTree.set(name, (byTree.get(name) ?? 0) + 1);
    }
  }
  console.log(
    `SQLite, ${ROWS.toLocaleString('en')} open rows, ${N} snoozes one at a time: ${(pages / N).toFixed(1)} pages a snooze (${(frames / N).toFixed(1)} frames of ${pageSize} bytes)`,
  );
  for (const [name, n] of [...byTree].sort((a, b) => b[1] - a[1]))
    console.log(`${(n / N).toFixed(2).padStart(6)}  ${name}`);
} finally {
  await h.close();
  await store.close();
}
