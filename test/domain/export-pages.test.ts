import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDesk } from '../../src/domain/business/export.ts';
import { writeYaml } from '../../src/domain/business/yaml.ts';
import { parseBusinessText } from '../../src/domain/business/read.ts';
import { deskContext } from '../../src/domain/context.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, reopenStore, type TestStore } from '../helpers/db.ts';
import { makeArrangement, makeDesk, makeDraft, makeWork, makeWorkMany } from '../helpers/factories.ts';
import { importBusinessText } from '../../src/domain/business/import.ts';
import { insertPlaybook } from '../../src/store/repositories/records.ts';
import { turnsDuring } from '../helpers/turns.ts';

// A large desk is read and written out a page at a time, with the process's other work let in
// between; the file is the one a single writing of the whole would give, byte for byte.

const ROWS = 2_500;
const ODD = ['two\nlines\n\nand a gap', '  led by spaces', 'a\u2028b', '---', '"quoted"', '123', 'ends\n', ''];

describe.each(DIALECTS)('a large desk written out ($name)', ({ name, open }) => {
  let store: TestStore;
  let h: Harness;
  let ctx: ReturnType<typeof deskContext>;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const { desk } = await makeDesk(store.db, { name: 'Many Rows' });
    await makeWorkMany(
      store.db,
      desk.id,
      Array.from({ length: ROWS }, (_, i) => ({
        title: `Row ${i}`,
        detail: ODD[i % ODD.length] || null,
        status: i % 9 === 0 ? ('done' as const) : ('open' as const),
        // Text that keeps its trailing line breaks, last in its row, at the end of a page and of the file.
        last_error: [999, 1000, ROWS - 1].includes(i) ? 'failed\n\n' : null,
      })),
    );
    // And last in the part of the file before the rows.
    await insertPlaybook(store.db, {
      desk_id: desk.id,
      name: 'file-it',
      connection_id: null,
      steps: JSON.stringify([{ goto: 'https://example.com/' }, { fill: '#note', value: 'Line one\n\n' }]),
    });
    const rows = await store.db.selectFrom('work').select('id').where('desk_id', '=', desk.id).orderBy('id').execute();
    // Messages on rows of the first and the last page.
    for (const r of [rows[1]!, rows[ROWS - 2]!]) await makeDraft(store.db, desk.id, r.id);
    ctx = deskContext(h.deps, (await findDesk(store.db, desk.id))!, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('as YAML and as JSON, letting the process in as it goes, the same as written whole', async () => {
    let yaml = '';
    expect(await turnsDuring(async () => (yaml = (await exportDesk(ctx, 'yaml')).text))).toBeGreaterThan(2);
    const body = yaml.replace(/^(#[^\n]*\n)+/, '');
    const doc = parseBusinessText(yaml, 'many.yaml') as { work: Array<{ messages?: unknown[] }> };
    expect(doc.work).toHaveLength(ROWS);
    expect(doc.work.filter((w) => w.messages).length).toBe(2);
    expect(body).toBe(writeYaml(doc));
    expect(body.endsWith('\n...\n')).toBe(true);
    // And desk import reads it back.
    const copy = await importBusinessText(store.db, yaml, { now: h.clock.now(), slug: `copy-${name}` });
    expect(copy.counts.work).toBe(ROWS);

    let json = '';
    expect(await turnsDuring(async () => (json = (await exportDesk(ctx, 'json')).text))).toBeGreaterThan(2);
    expect(json).toBe(`${JSON.stringify(JSON.parse(json), null, 2)}\n`);
    expect(JSON.parse(json)).toEqual(doc);
  });

  it('names the arrangement of a row added, with its arrangement, while the rows were being read', async () => {
    const deskId = ctx.desk.id;
    let added = false;
    // Another writer, between two pages of the rows: the export's first page of rows comes back
    // only once the arrangement and its row are stored, so they are added after the reading began.
    // (Through its own connection: the export's is held until its result is back.)
    const other = await reopenStore(store.target);
    const between: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async ({ result }) => {
        const first = result.rows[0] as Record<string, unknown> | undefined;
        if (!added && first && 'chase_after_days' in first) {
          const arrangement = await makeArrangement(other.db, deskId, 'New lease');
          await makeWork(other.db, deskId, { title: 'Pay the new lease', arrangement_id: arrangement.id });
          added = true;
        }
        return result;
      },
    };
    const file = await exportDesk({ ...ctx, db: ctx.db.withPlugin(between) }, 'json').finally(() => other.close());
    expect(added).toBe(true);
    const doc = JSON.parse(file.text) as {
      arrangements: Array<{ ref: string; name: string }>;
      work: Array<Record<string, unknown>>;
    };
    const row = doc.work.find((w) => w.title === 'Pay the new lease');
    expect(row, 'the row added is in the file').toBeDefined();
    expect(doc.arrangements.find((a) => a.ref === row!.arrangement)?.name).toBe('New lease');
  });
});
