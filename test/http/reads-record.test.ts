import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import type { Database } from '../../src/store/schema.ts';
import { addEvent } from '../../src/store/repositories/events.ts';
import { byAttention, toArrangement } from '../../src/domain/arrangements/list.ts';

// /arrangements (D4), /activity (D27) and /events: shapes, order, limits, and each desk
// seeing only its own.

type Over = Partial<{
  name: string;
  status: string;
  amount_cents: number | null;
  currency: string | null;
  renews_on: string | null;
}>;
async function arrangement(db: Kysely<Database>, deskId: string, over: Over = {}) {
  return db
    .insertInto('arrangements')
    .values({
      desk_id: deskId,
      name: over.name ?? 'Lease',
      counterparty: 'Acme Estates',
      kind: 'lease',
      status: over.status ?? 'active',
      starts_on: '2024-01-01',
      ends_on: null,
      renews_on: over.renews_on ?? null,
      amount_cents: over.amount_cents === undefined ? 1250000 : over.amount_cents,
      currency: over.currency === undefined ? 'GBP' : over.currency,
      contact_name: 'Jo Lane',
      contact_email: 'jo@acme.test',
      created_at: TEST_NOW,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

function activity(deskId: string, over: Partial<Database['activity']> & { created_at: string }) {
  return {
    desk_id: deskId,
    kind: 'message',
    obligation_id: null,
    arrangement_id: null,
    outcome_id: null,
    channel: 'email',
    direction: 'outbound',
    subject: 'Subject',
    body: 'Body',
    to_address: 'x@example.test',
    status: 'sent',
    actor: 'desk',
    failure_reason: 'secret reason',
    sent_at: null,
    approved_at: null,
    ...over,
  } as Database['activity'] & { id?: never };
}

describe.each(DIALECTS)('arrangements, activity and events ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  let o: Awaited<ReturnType<typeof makeDesk>>;
  const get = (url: string, key = d.key) => h.call('GET', `/api/v1${url}`, { key });
  const data = async (url: string, key = d.key) => {
    const res = await get(url, key);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    d = await makeDesk(store.db);
    o = await makeDesk(store.db);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  describe('GET /arrangements', () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      const db = store.db;
      ids = {
        quiet: (
          await arrangement(db, d.desk.id, {
            name: 'Quiet supply',
            status: 'ending',
            amount_cents: null,
            currency: null,
          })
        ).id,
        busy: (await arrangement(db, d.desk.id, { name: 'Busy lease', renews_on: '2027-03-01' })).id,
        late: (await arrangement(db, d.desk.id, { name: 'Late insurance', amount_cents: 5000, currency: null })).id,
        soon: (await arrangement(db, d.desk.id, { name: 'Soon cleaning', status: 'ended' })).id,
        later: (await arrangement(db, d.desk.id, { name: 'Later window', status: 'active' })).id,
      };
      const w = (arr: number, over: Parameters<typeof makeWork>[2]) =>
        makeWork(db, d.desk.id, { arrangement_id: arr, ...over });
      await w(ids.busy!, { due_date: '2026-12-10' });
      await w(ids.busy!, { due_date: '2026-12-02', status: 'waiting' });
      await w(ids.busy!, { due_date: null, status: 'in_progress' });
      await w(ids.busy!, { due_date: '2026-01-01', status: 'done', closed_at: TEST_NOW });
      await w(ids.late!, { due_date: '2026-11-20' });
      await w(ids.soon!, { due_date: '2026-11-25' });
      await w(ids.later!, { due_date: '2026-12-25' });
      // Another desk's rows on our arrangement id never count (they cannot, but a count by id must still be by desk).
      await makeWork(db, o.desk.id, { due_date: '2026-01-01' });
      await db
        .insertInto('activity')
        .values([
          activity(d.desk.id, {
            kind: 'note',
            arrangement_id: ids.busy!,
            channel: 'note',
            direction: 'inbound',
            status: 'recorded',
            created_at: '2026-11-20T10:00:00.000Z',
          }),
          activity(d.desk.id, {
            kind: 'note',
            arrangement_id: ids.busy!,
            channel: 'call',
            direction: 'inbound',
            status: 'recorded',
            created_at: '2026-11-21T10:00:00.000Z',
          }),
          activity(d.desk.id, { kind: 'message', arrangement_id: ids.busy!, created_at: '2026-11-22T09:00:00.000Z' }),
        ])
        .execute();
    });

    it('gives every field of D4, with open work, overdue work, next due and notes', async () => {
      const { items } = await data('/arrangements');
      const busy = items.find((a: { id: number }) => a.id === ids.busy);
      expect(busy).toEqual({
        id: ids.busy,
        name: 'Busy lease',
        counterparty: 'Acme Estates',
        kind: 'lease',
        status: 'active',
        starts_on: '2024-01-01',
        ends_on: null,
        renews_on: '2027-03-01',
        amount_cents: 1250000,
        currency: 'GBP',
        contact_name: 'Jo Lane',
        contact_email: 'jo@acme.test',
        open_work: 3,
        overdue_work: 0,
        next_due: '2026-12-02',
        notes_count: 2,
        last_note_at: '2026-11-21T10:00:00.000Z',
      });
      expect(items.find((a: { id: number }) => a.id === ids.quiet)).toMatchObject({
        status: 'ending',
        amount_cents: null,
        currency: null,
        open_work: 0,
        overdue_work: 0,
        next_due: null,
        notes_count: 0,
        last_note_at: null,
      });
      expect(items.find((a: { id: number }) => a.id === ids.late)).toMatchObject({
        amount_cents: null,
        currency: null,
        overdue_work: 1,
        next_due: '2026-11-20',
      });
    });

    it('puts most in need of attention first: overdue, open, next due', async () => {
      const { items } = await data('/arrangements');
      expect(items.map((a: { id: number }) => a.id)).toEqual([ids.late, ids.busy, ids.soon, ids.later, ids.quiet]);
    });

    /** An arrangement with no rows, as the list gives it, named and numbered as a test needs. */
    const bare = (id: number, name: string) =>
      toArrangement({
        id,
        name,
        counterparty: null,
        kind: 'x',
        status: 'active',
        starts_on: null,
        ends_on: null,
        renews_on: null,
        amount_cents: null,
        currency: null,
        contact_name: null,
        contact_email: null,
      });

    it('orders ties by name, then id', () => {
      const a = bare(2, 'B');
      const b = { ...a, id: 1, name: 'A' };
      const c = { ...a, id: 3 };
      expect([c, a, b].sort(byAttention).map((x) => x.id)).toEqual([1, 2, 3]);
      // Names in the order of their bytes, as the database orders text (P-reads-9).
      const named = ['émile', 'Zeta', 'apple', 'Émile'].map((name, i) => ({ ...a, id: i, name }));
      expect(named.sort(byAttention).map((x) => x.name)).toEqual(['Zeta', 'apple', 'Émile', 'émile']);
    });

    it('puts an arrangement with no open row due after one due on the last day the desk keeps', () => {
      const base = bare(1, 'alpha');
      const none = { ...base, open_work: 1, next_due: null };
      const last = { ...base, id: 2, name: 'Beta', open_work: 1, next_due: '9999-12-31' };
      const soon = { ...base, id: 3, name: 'Gamma', open_work: 1, next_due: '2026-01-01' };
      expect([none, last, soon].sort(byAttention).map((x) => x.name)).toEqual(['Gamma', 'Beta', 'alpha']);
      expect([soon, none, last].sort(byAttention).map((x) => x.name)).toEqual(['Gamma', 'Beta', 'alpha']);
    });

    it('another desk sees only its own; a desk with none gets an empty list', async () => {
      const theirs = await arrangement(store.db, o.desk.id, { name: 'Their lease' });
      const list = await data('/arrangements', o.key);
      expect(list.items.map((a: { id: number }) => a.id)).toEqual([theirs.id]);
      expect(list.items[0]).toMatchObject({ open_work: 0, notes_count: 0 });
      const empty = await makeDesk(store.db);
      expect(await data('/arrangements', empty.key)).toEqual({ items: [] });
    });
  });

  describe('GET /activity', () => {
    let desk: Awaited<ReturnType<typeof makeDesk>>;
    beforeAll(async () => {
      desk = await makeDesk(store.db);
      const row = await makeWork(store.db, desk.desk.id, { title: 'Row' });
      const rows = [];
      for (let i = 0; i < 230; i++) {
        const at = new Date(Date.parse('2026-11-01T00:00:00.000Z') + i * 3_600_000).toISOString();
        rows.push(
          activity(desk.desk.id, {
            obligation_id: i % 2 ? row.id : null,
            subject: `n${i}`,
            created_at: at,
            kind: i % 3 ? 'message' : 'note',
            status: i % 3 ? 'sent' : 'recorded',
          }),
        );
      }
      await store.db.insertInto('activity').values(rows).execute();
      // Written later but stamped earlier: newest means the timestamp.
      await store.db
        .insertInto('activity')
        .values(activity(desk.desk.id, { subject: 'backdated', created_at: '2026-10-01T00:00:00.000Z' }))
        .execute();
      await store.db
        .insertInto('activity')
        .values(activity(o.desk.id, { subject: 'theirs', created_at: '2026-12-31T00:00:00.000Z' }))
        .execute();
    });

    it('gives the contract fields, newest first, 50 by default', async () => {
      const { items } = await data('/activity', desk.key);
      expect(items).toHaveLength(50);
      expect(items[0]).toEqual({
        id: expect.any(Number),
        obligation_id: expect.any(Number),
        arrangement_id: null,
        outcome_id: null,
        channel: 'email',
        direction: 'outbound',
        subject: 'n229',
        body: 'Body',
        status: 'sent',
        actor: 'desk',
        created_at: '2026-11-10T13:00:00.000Z',
        sent_at: null,
        approved_at: null,
      });
      expect(items.map((a: { subject: string }) => a.subject).slice(0, 3)).toEqual(['n229', 'n228', 'n227']);
      const times = items.map((a: { created_at: string }) => a.created_at);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it.each([
      ['0', 1],
      ['1', 1],
      ['10', 10],
      ['2.5', 2],
      ['200', 200],
      ['5000', 200],
      ['abc', 50],
      ['', 50],
      ['-4', 1],
    ])('limit=%s gives %i', async (limit, n) => {
      expect((await data(`/activity?limit=${limit}`, desk.key)).items).toHaveLength(n);
    });

    it('at 200 the backdated entry is still beyond reach; no secret or internal column leaves', async () => {
      const res = await get('/activity?limit=200', desk.key);
      expect(res.body).not.toContain('backdated');
      expect(res.body).not.toContain('secret reason');
      expect(res.body).not.toContain('"kind"');
    });

    it('another desk sees only its own', async () => {
      const { items } = await data('/activity?limit=200', o.key);
      expect(items.map((a: { subject: string }) => a.subject)).toContain('theirs');
      for (const a of (await data('/activity?limit=200', desk.key)).items) expect(a.subject).not.toBe('theirs');
    });
  });

  describe('GET /events', () => {
    let desk: Awaited<ReturnType<typeof makeDesk>>;
    beforeAll(async () => {
      desk = await makeDesk(store.db);
      for (let i = 0; i < 60; i++) {
        const at = new Date(Date.parse('2026-11-23T00:00:00.000Z') + i * 60_000).toISOString();
        await addEvent(store.db, {
          deskId: desk.desk.id,
          kind: i % 2 ? 'api_write' : 'snoozed',
          message: `e${i}`,
          data: { i, key_prefix: 'desk_abc', nested: { ok: true } },
          at,
        });
      }
      await store.db
        .insertInto('events')
        .values({
          desk_id: desk.desk.id,
          kind: 'odd',
          message: 'not json',
          data: 'not json',
          created_at: '2026-11-19T00:00:00.000Z',
        })
        .execute();
      await addEvent(store.db, { deskId: o.desk.id, kind: 'chat', message: 'theirs', at: '2026-12-31T00:00:00.000Z' });
    });

    it('gives id, kind, message, data as an object and created_at, newest first', async () => {
      const { items } = await data('/events', desk.key);
      expect(items).toHaveLength(50);
      expect(Object.keys(items[0]).sort()).toEqual(['created_at', 'data', 'id', 'kind', 'message']);
      expect(items[0]).toMatchObject({
        kind: 'api_write',
        message: 'e59',
        data: { i: 59, key_prefix: 'desk_abc', nested: { ok: true } },
        created_at: '2026-11-23T00:59:00.000Z',
      });
      expect(items.map((e: { message: string }) => e.message).slice(0, 3)).toEqual(['e59', 'e58', 'e57']);
    });

    it('data that is not an object reads as {}; the key made with the desk is logged too', async () => {
      const { items } = await data('/events?limit=200', desk.key);
      expect(items.slice(-2)).toMatchObject([{ kind: 'key_created' }, { kind: 'odd', data: {} }]);
    });

    it.each([
      ['0', 1],
      ['3', 3],
      ['9.9', 9],
      ['999', 62],
      ['x', 50],
    ])('limit=%s gives %i', async (limit, n) => {
      expect((await data(`/events?limit=${limit}`, desk.key)).items).toHaveLength(n);
    });

    it('another desk sees only its own', async () => {
      expect((await data('/events', o.key)).items.map((e: { kind: string }) => e.kind)).toEqual([
        'chat',
        'key_created',
      ]);
      for (const e of (await data('/events?limit=200', desk.key)).items) expect(e.message).not.toBe('theirs');
    });
  });
});
