import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDesk } from '../../src/domain/business/export.ts';
import { writeYaml } from '../../src/domain/business/yaml.ts';
import { parseBusinessText } from '../../src/domain/business/read.ts';
import { deskContext } from '../../src/domain/context.ts';
import { findDesk } from '../../src/store/repositories/desks.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWorkMany } from '../helpers/factories.ts';
import { turnsDuring } from '../helpers/turns.ts';

// A large desk is read and written out a page at a time, with the process's other work let in
// between; the file is the one a single writing of the whole would give, byte for byte.

const ROWS = 2_500;
const ODD = ['two\nlines\n\nand a gap', '  led by spaces', 'a\u2028b', '---', '"quoted"', '123', 'ends\n', ''];

describe.each(DIALECTS)('a large desk written out ($name)', ({ open }) => {
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
      })),
    );
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

    let json = '';
    expect(await turnsDuring(async () => (json = (await exportDesk(ctx, 'json')).text))).toBeGreaterThan(2);
    expect(json).toBe(`${JSON.stringify(JSON.parse(json), null, 2)}\n`);
    expect(JSON.parse(json)).toEqual(doc);
  });
});
