import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, reopenStore, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { addDays, todayIn } from '../../src/domain/dates.ts';
import { deskContext } from '../../src/domain/context.ts';
import { getWork } from '../../src/domain/work/get.ts';
import { listWork } from '../../src/domain/work/list.ts';
import { addTimeline } from '../../src/store/repositories/events.ts';

// P-speed-5: a read answered from memory while the store is unchanged must never answer what
// was true before a change, whoever made it, nor what was true on another day.

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.each(DIALECTS)('reads answered again after every change ($name)', ({ open }) => {
  let store: TestStore | null = null;
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    await store?.close();
    h = null;
    store = null;
  });

  async function setUp() {
    store = await open();
    h = await harness(store);
    const d = await makeDesk(store.db, { grants: ['file'] });
    const today = todayIn(d.desk.timezone, new Date(TEST_NOW));
    const row = await makeWork(store.db, d.desk.id, { title: 'Renew the licence', due_date: addDays(today, 1) });
    const get = async (url: string) => {
      const res = await h!.call('GET', `/api/v1${url}`, { key: d.key });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    return { d, row, today, get, h: h!, store: store! };
  }

  it("shows another process's change on the next request, on every remembered read", async () => {
    const { d, row, get, store } = await setUp();
    const before = {
      page: await get('/work?limit=50'),
      detail: await get(`/work/${row.id}`),
      units: await get('/units'),
      events: await get('/events'),
    };
    expect(await get('/work?limit=50')).toEqual(before.page);
    expect(before.page.items.map((i: { title: string }) => i.title)).toEqual(['Renew the licence']);
    expect(before.units.items).toEqual([]);

    const other = await reopenStore(store.target);
    await other.db.updateTable('work').set({ title: 'Renew the trading licence' }).where('id', '=', row.id).execute();
    await addTimeline(other.db, { deskId: d.desk.id, workId: row.id, kind: 'note', at: TEST_NOW, text: 'Called.' });
    await other.db
      .insertInto('units')
      .values({ desk_id: d.desk.id, type: 'van', name: 'Van 1', fields: '{}', arrangement_id: null, position: 0 })
      .execute();
    await other.db
      .insertInto('events')
      .values({ desk_id: d.desk.id, kind: 'note', message: 'Elsewhere.', data: '{}', created_at: TEST_NOW })
      .execute();
    await other.close();
    await nextTurn();

    const page = await get('/work?limit=50');
    expect(page.items.map((i: { title: string }) => i.title)).toEqual(['Renew the trading licence']);
    const detail = await get(`/work/${row.id}`);
    expect(detail.work.title).toBe('Renew the trading licence');
    expect(detail.timeline.map((t: { text: string }) => t.text)).toContain('Called.');
    expect((await get('/units')).items.map((u: { name: string }) => u.name)).toEqual(['Van 1']);
    expect((await get('/events')).items.length).toBe(before.events.items.length + 1);
  });

  it("shows this process's own writes at once", async () => {
    const { d, row, get, h } = await setUp();
    expect((await get('/work?limit=50')).items[0].status).toBe('open');
    const res = await h.call('POST', `/api/v1/work/${row.id}/snooze`, { key: d.key, body: { days: 3 } });
    expect(res.statusCode).toBe(200);
    const snoozed = res.json().data.due_date;
    expect((await get('/work?limit=50')).items[0].due_date).toBe(snoozed);
    expect((await get(`/work/${row.id}`)).work.due_date).toBe(snoozed);
  });

  it("answers afresh when the desk's day turns, with nothing written", async () => {
    const { d, row, h } = await setUp();
    // Read through the service itself, so no request writes a key's last use in between.
    const ctx = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' });
    expect((await listWork(ctx, { limit: 50 })).items[0]).toMatchObject({ days_to_due: 1, overdue: false });
    expect((await getWork(ctx, row.id)).work.days_to_due).toBe(1);
    h.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect((await listWork(ctx, { limit: 50 })).items[0]).toMatchObject({ days_to_due: -1, overdue: true });
    expect((await getWork(ctx, row.id)).work).toMatchObject({ days_to_due: -1, overdue: true });
  });
});
