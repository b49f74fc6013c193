import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBusiness } from '../../src/domain/business/import.ts';
import { planFromText } from '../../src/domain/business/read.ts';
import { addDays, dateIn, midnightIn } from '../../src/domain/dates.ts';
import {
  openByArrangement,
  openByClass,
  openOutWith,
  recountByArrangement,
  recountByClass,
} from '../../src/store/repositories/open-counts.ts';
import { countOpenWork } from '../../src/store/repositories/work.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { desk } from '../helpers/cli.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';

// A large business file goes in a batch at a time. Whatever the batches, the desk must hold
// what the file says, row for row in file order, with its messages, one timeline entry a row,
// the import's events and stored counts equal to a recount, on both databases.

const TZ = 'Europe/London';
const ROWS = 2_345; // three batches of the import's 1,000, the last one short
const CLASSES = ['reach_out', 'chase', 'file', 'commit', 'money', 'sign', null] as const;
const STATUSES = ['open', 'open', 'in_progress', 'waiting', 'done', 'closed'] as const;
const MESSAGE = ['drafted', 'approved', 'sent'] as const;

/** What row i of the generated file says, in the file's own terms. */
function rowOf(i: number) {
  const status = STATUSES[i % STATUSES.length]!;
  const finished = status === 'done' || status === 'closed';
  return {
    title: `Row ${i}`,
    status,
    class: CLASSES[i % CLASSES.length]!,
    priority: (i % 100) + 1,
    due: i % 9 === 0 ? null : (i % 15) - 7,
    arrangement: i % 3 === 0 ? `arr-${i % 4}` : null,
    unit: i % 5 === 0 ? `unit-${i % 2}` : null,
    waiting: i % 11 === 0 ? { on: `Person ${i}`, since: i % 22 === 0 ? -(i % 13) - 1 : null } : null,
    // A finished row holds only messages that went.
    messages: i % 10 === 0 ? (finished ? MESSAGE.slice(2) : MESSAGE.slice(0, (i / 10) % 3 === 0 ? 2 : 1)) : [],
    ref: i % 250 === 0 ? `w-${i}` : null,
    // Every other finished row says the day it was finished; the rest have none.
    closed: finished && i % 2 === 0 ? -(i % 5) : null,
  };
}

function businessFile(): string {
  const q = JSON.stringify;
  const lines = [
    `desk: { name: Batch Bakery, slug: batch-bakery, timezone: ${TZ}, currency: GBP }`,
    'grants: [reach_out, chase]',
    'arrangements:',
    ...[0, 1, 2, 3].map((a) => `  - { ref: arr-${a}, name: Arrangement ${a}, kind: service }`),
    'units:',
    ...[0, 1].map((u) => `  - { ref: unit-${u}, type: site, name: Site ${u} }`),
    'work:',
  ];
  for (let i = 0; i < ROWS; i++) {
    const r = rowOf(i);
    const fields = [
      `title: ${q(r.title)}`,
      `status: ${r.status}`,
      `class: ${r.class ?? 'null'}`,
      `priority: ${r.priority}`,
      ...(r.due === null ? [] : [`due: "${r.due >= 0 ? '+' : ''}${r.due}d"`]),
      ...(r.arrangement ? [`arrangement: ${r.arrangement}`] : []),
      ...(r.unit ? [`unit: ${r.unit}`] : []),
      ...(r.waiting ? [`waiting_on: ${q(r.waiting.on)}`, `contact_email: "p${i}@example.test"`] : []),
      ...(r.waiting && r.waiting.since !== null ? [`waiting_since: "${r.waiting.since}d"`] : []),
      ...(r.ref ? [`ref: ${r.ref}`] : []),
      ...(r.closed !== null ? [`closed_at: "${r.closed === 0 ? 'today' : `${r.closed}d`}"`] : []),
      ...(r.messages.length
        ? [
            `messages: [${r.messages.map((s) => `{ status: ${s}, subject: "${s} ${i}", body: "About row ${i}.", to: "p${i}@example.test" }`).join(', ')}]`,
          ]
        : []),
    ];
    lines.push(`  - { ${fields.join(', ')} }`);
  }
  return `${lines.join('\n')}\n`;
}

describe.each(DIALECTS)('a large import, written in batches ($name)', ({ open }) => {
  let store: TestStore;
  const dir = mkdtempSync(path.join(tmpdir(), 'desk-batch-'));
  const text = businessFile();

  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds every row in file order, with its messages, timeline, refs, events and counts', async () => {
    const file = path.join(dir, 'batch.yaml');
    writeFileSync(file, text);
    const run = await desk(store.target, 'import', file, '--json');
    expect(run.code, run.err).toBe(0);
    const { desk: made, refs } = run.json();
    const today = dateIn(TZ, new Date(TEST_NOW));

    const units = await store.db.selectFrom('units').select(['id', 'name']).where('desk_id', '=', made.id).execute();
    const unitId = (ref: string) => units.find((u) => u.name === `Site ${ref.slice(5)}`)!.id;
    const rows = await store.db.selectFrom('work').selectAll().where('desk_id', '=', made.id).orderBy('id').execute();
    expect(rows).toHaveLength(ROWS);
    rows.forEach((row, i) => {
      const r = rowOf(i);
      expect(row, r.title).toMatchObject({
        title: r.title,
        status: r.status,
        class: r.class,
        priority: r.priority,
        due_date: r.due === null ? null : addDays(today, r.due),
        arrangement_id: r.arrangement ? refs[r.arrangement] : null,
        unit_id: r.unit ? unitId(r.unit) : null,
        waiting_on: r.waiting?.on ?? null,
        waiting_since: r.waiting ? (r.waiting.since === null ? row.created_at : addDays(today, r.waiting.since)) : null,
        closed_at: r.closed === null ? null : midnightIn(TZ, addDays(today, r.closed)).toISOString(),
      });
    });
    for (let i = 0; i < ROWS; i += 250) expect(refs[`w-${i}`]).toBe(rows[i]!.id);

    const messages = await store.db
      .selectFrom('activity')
      .selectAll()
      .where('desk_id', '=', made.id)
      .orderBy('id')
      .execute();
    const expected = rows.flatMap((row, i) =>
      rowOf(i).messages.map((status) => ({
        obligation_id: row.id,
        arrangement_id: row.arrangement_id,
        kind: 'message',
        direction: 'outbound',
        status,
        subject: `${status} ${i}`,
        body: `About row ${i}.`,
        to_address: `p${i}@example.test`,
        approved_at: status === 'drafted' ? null : row.created_at,
        sent_at: status === 'sent' ? row.created_at : null,
      })),
    );
    expect(messages).toEqual(expected.map((m) => expect.objectContaining(m)));

    const timeline = await store.db
      .selectFrom('timeline')
      .select(['work_id', 'kind', 'text', 'at'])
      .where('desk_id', '=', made.id)
      .orderBy('work_id')
      .execute();
    expect(timeline).toEqual(
      rows.map((row) => ({
        work_id: row.id,
        kind: 'imported',
        text: 'Brought in from the business file.',
        at: row.created_at,
      })),
    );

    const events = await store.db
      .selectFrom('events')
      .select(['kind', 'message', 'data'])
      .where('desk_id', '=', made.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.kind, JSON.parse(e.data)])).toEqual([
      ['grant_changed', { class: 'reach_out', granted: true, by: 'import' }],
      ['grant_changed', { class: 'chase', granted: true, by: 'import' }],
      ['desk_imported', { work: ROWS, by: 'import' }],
    ]);
    expect(events[2]!.message).toBe('Desk "Batch Bakery" set up from a business file with 2,345 work items.');

    const openRows = rows.filter((r) => ['open', 'in_progress', 'waiting'].includes(r.status)).length;
    const stored = await store.db.selectFrom('desks').select('open_count').where('id', '=', made.id).executeTakeFirst();
    expect(Number(stored?.open_count)).toBe(openRows);
    expect(await countOpenWork(store.db, made.id)).toBe(openRows);
    const byKey = <T>(list: T[]) => list.map((r) => JSON.stringify(r)).sort();
    expect(byKey(await openByClass(store.db, made.id))).toEqual(byKey(await recountByClass(store.db, made.id)));
    expect(byKey(await openByArrangement(store.db, made.id, today))).toEqual(
      byKey(await recountByArrangement(store.db, made.id, today)),
    );
    const out = (await recountByClass(store.db, made.id)).filter((r) => r.out === 1).reduce((s, r) => s + r.n, 0);
    expect(out).toBeGreaterThan(0);
    expect(await openOutWith(store.db, made.id)).toBe(out);
  });

  it('writes the file in statements that do not grow with its rows', async () => {
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const now = new Date(TEST_NOW);
    const plan = planFromText(text.replace('slug: batch-bakery', 'slug: batch-counted'), { now });
    const r = await importBusiness(store.db.withPlugin(counting), plan, { now });
    expect(r.counts.work).toBe(ROWS);
    // One at a time, each row took an insert, a timeline entry and its counts: thousands here.
    expect(statements).toBeLessThan(ROWS / 10);
  });
});
