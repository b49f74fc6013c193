import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { importDemo, type DemoResult } from '../../src/domain/business/demo.ts';
import { composeDraft } from '../../src/domain/work/compose.ts';

// Every draft the demo can produce reads as a person wrote it: a row's title (written as a task,
// "Book the fire-safety inspection") is never pasted mid-sentence after a word.

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pasted = (title: string) => new RegExp(`[a-z,] ${literal(title)}`);

describe("the demo's drafts", () => {
  let store: TestStore;
  let h: Harness;
  let demo: DemoResult;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    demo = await importDemo(store.db, { now: h.clock.now() });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('lists every kind of its rows on a work block of GET /desk, so each is a `kind` filter a client can offer', async () => {
    const desk = (await h.call('GET', '/api/v1/desk', { key: demo.key.key })).json().data;
    const listed = new Set<string>(
      desk.sections.filter((s: { kind: string }) => s.kind === 'work').flatMap((s: { kinds: string[] }) => s.kinds),
    );
    const kinds = await store.db
      .selectFrom('work')
      .select('kind')
      .distinct()
      .where('desk_id', '=', demo.desk.id)
      .execute();
    expect(kinds.length).toBeGreaterThan(5);
    for (const { kind } of kinds) expect(listed.has(kind), kind).toBe(true);
  });

  it('each open row drafted through the API, and under every template, names its task as a person would', async () => {
    const rows = await store.db
      .selectFrom('work')
      .select(['id', 'title', 'contact_email'])
      .where('desk_id', '=', demo.desk.id)
      .where('status', 'in', ['open', 'in_progress', 'waiting'])
      .execute();
    let drafted = 0;
    for (const row of rows) {
      const res = await h.call('POST', `/api/v1/work/${row.id}/draft`, { key: demo.key.key });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      if (data.drafted) {
        drafted++;
        expect(data.body, row.title).not.toMatch(pasted(row.title));
      }
      for (const permission of ['reach_out', 'chase', 'file', 'commit', 'money', null]) {
        for (const waiting of [null, 'Sam']) {
          const d = composeDraft({
            title: row.title,
            permission,
            due_date: '2026-12-01',
            today: TEST_NOW.slice(0, 10),
            contact_name: 'Jo',
            contact_email: 'jo@x.test',
            waiting_on: waiting,
            waiting_since: waiting ? '2026-11-10' : null,
            about: 'the shop lease',
            notes: [],
            signature: 'Corner Bakery',
          });
          expect(d.body, `${row.title} / ${permission} / ${waiting}`).not.toMatch(pasted(row.title));
        }
      }
    }
    expect(drafted).toBeGreaterThan(0);
  });
});
