import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import type { Database } from '../../src/store/schema.ts';
import { PERMISSION_CLASSES } from '../../src/domain/vocab.ts';
import { orderConnections } from '../../src/domain/desks/connections.ts';
import { unitFields } from '../../src/domain/desks/units.ts';

// The Desk tag: /desk, /units, /connections, /domains, /permissions, /watches. Each desk
// sees only its own; nothing secret leaves.

const SECRET = 'hunter2-do-not-show';

async function furnish(db: Kysely<Database>, deskId: string, tag: string) {
  await db
    .insertInto('sections')
    .values([
      {
        desk_id: deskId,
        id: `${tag}-sites`,
        position: 2,
        title: 'Sites',
        blurb: 'Where we trade',
        kind: 'units',
        kinds: '[]',
        unit: 'site',
        fields: JSON.stringify([{ name: 'lease_end', hint: 'Date the lease ends' }]),
        why: 'Every date hangs off a site.',
        created_at: TEST_NOW,
      },
      {
        desk_id: deskId,
        id: `${tag}-obligations`,
        position: 1,
        title: 'What keeps us open',
        blurb: 'Licences and filings',
        kind: 'work',
        kinds: JSON.stringify(['licence_renewal', 'filing']),
        unit: null,
        fields: '[]',
        why: 'A lapsed licence closes the shop.',
        created_at: TEST_NOW,
      },
      {
        desk_id: deskId,
        id: `${tag}-money`,
        position: 3,
        title: 'Money',
        blurb: 'What is owed',
        kind: 'money',
        kinds: '[]',
        unit: null,
        fields: '[]',
        why: 'Cash runs the shop.',
        created_at: TEST_NOW,
      },
    ])
    .execute();
  await db
    .insertInto('units')
    .values([
      {
        desk_id: deskId,
        type: 'site',
        name: `${tag} 12 High Street`,
        fields: JSON.stringify({ lease_end: '2027-01-01', floor_area: 82.5, landlord: null, nested: { no: 1 } }),
        arrangement_id: null,
        position: 2,
      },
      { desk_id: deskId, type: 'site', name: `${tag} 3 Mill Lane`, fields: '{}', arrangement_id: null, position: 1 },
      {
        desk_id: deskId,
        type: 'van',
        name: `${tag} Van`,
        fields: JSON.stringify({ mot_due: '2026-12-01' }),
        arrangement_id: null,
        position: 3,
      },
    ])
    .execute();
  const conn = (name: string, status: string, category = 'mail') => ({
    desk_id: deskId,
    provider: 'smtp',
    name: `${tag} ${name}`,
    category,
    auth_type: 'token',
    status,
    config: JSON.stringify({ pass: SECRET, token: SECRET }),
    created_at: TEST_NOW,
  });
  await db
    .insertInto('connections')
    .values([
      conn('B mailbox', 'connected'),
      conn('Ledger', 'pending', 'accounting'),
      conn('Portal', 'error', 'filing'),
      conn('A drive', 'connected', 'files'),
      conn('Bank', 'expired', 'money'),
    ])
    .execute();
  await db
    .insertInto('domains')
    .values([
      {
        desk_id: deskId,
        name: `${tag}-bakery.test`,
        registrar: 'Gandi',
        status: 'live',
        renewal_on: '2027-02-01',
        amount_cents: 1500,
        currency: 'GBP',
        broker_name: null,
        notes: null,
      },
      {
        desk_id: deskId,
        name: `${tag}-cakes.test`,
        registrar: 'Gandi',
        status: 'unpaid',
        renewal_on: '2026-12-05',
        amount_cents: 2500,
        currency: 'GBP',
        broker_name: 'Sedo',
        notes: 'Reminder sent',
      },
      {
        desk_id: deskId,
        name: `${tag}-buns.test`,
        registrar: 'Namecheap',
        status: 'collections',
        renewal_on: null,
        amount_cents: 4000,
        currency: 'USD',
        broker_name: null,
        notes: null,
      },
    ])
    .execute();
  await db
    .insertInto('watches')
    .values([
      {
        desk_id: deskId,
        subject_type: 'site',
        field: 'lease_end',
        label: 'Lease renewal',
        lead_days: 60,
        kind: 'lease_renewal',
        action: 'commit',
        every: '365',
        priority: 70,
      },
      {
        desk_id: deskId,
        subject_type: 'van',
        field: 'mot_due',
        label: 'MOT',
        lead_days: 30,
        kind: 'mot',
        action: 'reach_out',
        every: null,
        priority: 60,
      },
    ])
    .execute();
}

describe.each(DIALECTS)('the Desk routes ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  let o: Awaited<ReturnType<typeof makeDesk>>;
  let bare: Awaited<ReturnType<typeof makeDesk>>;
  const get = (url: string, key = d.key) => h.call('GET', `/api/v1${url}`, { key });
  const data = async (url: string, key = d.key) => {
    const res = await get(url, key);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    d = await makeDesk(store.db, { grants: ['reach_out', 'chase'] });
    await store.db.updateTable('desks').set({ broker: 'Sedo' }).where('id', '=', d.desk.id).execute();
    o = await makeDesk(store.db);
    bare = await makeDesk(store.db, { currency: 'EUR' });
    await furnish(store.db, d.desk.id, 'mine');
    await furnish(store.db, o.desk.id, 'theirs');
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  describe('GET /desk', () => {
    it("gives the sections in the desk's order, in the DeskSection shape", async () => {
      const { sections } = await data('/desk');
      expect(sections.map((s: { id: string }) => s.id)).toEqual(['mine-obligations', 'mine-sites', 'mine-money']);
      expect(sections[0]).toEqual({
        id: 'mine-obligations',
        title: 'What keeps us open',
        blurb: 'Licences and filings',
        kind: 'work',
        kinds: ['licence_renewal', 'filing'],
        unit: null,
        fields: [],
        why: 'A lapsed licence closes the shop.',
      });
      expect(sections[1]).toMatchObject({
        kind: 'units',
        kinds: [],
        unit: 'site',
        fields: [{ name: 'lease_end', hint: 'Date the lease ends' }],
      });
    });

    it('a desk with no sections has an empty list', async () => {
      expect(await data('/desk', bare.key)).toEqual({ sections: [] });
    });

    it('lists the kinds of open rows that no block collects in a last block, so /desk names every kind', async () => {
      const plain = await makeDesk(store.db);
      const row = await makeWork(store.db, plain.desk.id, { title: 'Added with the default kind', kind: 'general' });
      await makeWork(store.db, plain.desk.id, { title: 'A repair', kind: 'repair' });
      expect(await data('/desk', plain.key)).toEqual({
        sections: [
          {
            id: 'other-kinds',
            title: 'Other work',
            blurb: 'Open rows of kinds no other block collects.',
            kind: 'work',
            kinds: ['general', 'repair'],
            unit: null,
            fields: [],
            why: 'Every kind of open row is listed in a block, so each can be found.',
          },
        ],
      });
      const { items } = await data('/work?kind=general', plain.key);
      expect(items.map((i: { id: number }) => i.id)).toEqual([row.id]);
    });
  });

  describe('GET /units', () => {
    it("lists every unit in the desk's order, fields as an object", async () => {
      const { items } = await data('/units');
      expect(items.map((u: { name: string }) => u.name)).toEqual([
        'mine 3 Mill Lane',
        'mine 12 High Street',
        'mine Van',
      ]);
      expect(items[1]).toEqual({
        id: expect.any(Number),
        type: 'site',
        name: 'mine 12 High Street',
        fields: { lease_end: '2027-01-01', floor_area: 82.5, landlord: null },
        arrangement_id: null,
      });
    });

    it('narrows by type; an unknown type gives an empty list', async () => {
      expect((await data('/units?type=van')).items.map((u: { name: string }) => u.name)).toEqual(['mine Van']);
      expect((await data('/units?type=site')).items).toHaveLength(2);
      expect(await data('/units?type=boat')).toEqual({ items: [] });
      expect(await data('/units?type=')).toEqual({ items: [] });
    });

    it('fields keep only strings, numbers and null', () => {
      expect(unitFields('{"a":"x","b":2,"c":null,"d":true,"e":[1],"f":{}}')).toEqual({ a: 'x', b: 2, c: null });
      expect(unitFields('not json')).toEqual({});
      expect(unitFields('[1,2]')).toEqual({});
    });
  });

  describe('GET /connections', () => {
    it('puts problems first, then connected, then pending, and says connected', async () => {
      const { items } = await data('/connections');
      expect(items.map((c: { name: string; status: string }) => `${c.status} ${c.name}`)).toEqual([
        'expired mine Bank',
        'error mine Portal',
        'connected mine A drive',
        'connected mine B mailbox',
        'pending mine Ledger',
      ]);
      for (const c of items) expect(c.connected).toBe(c.status === 'connected');
      expect(Object.keys(items[0]).sort()).toEqual([
        'auth_type',
        'category',
        'connected',
        'id',
        'name',
        'provider',
        'reason',
        'status',
      ]);
      // Only a mailbox the desk could not read says why; the rest have no reason to give.
      for (const c of items) expect(c.reason).toBeNull();
    });

    it('never reveals a secret', async () => {
      const res = await get('/connections');
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain('config');
    });

    it('orders by rank, then name, then id', () => {
      const ordered = orderConnections([
        { id: 3, name: 'b', status: 'pending' },
        { id: 2, name: 'a', status: 'connected' },
        { id: 1, name: 'z', status: 'weird' },
        { id: 4, name: 'a', status: 'connected' },
      ]);
      expect(ordered.map((c) => c.id)).toEqual([1, 2, 4, 3]);
      // Names in the order of their bytes, as the database orders text (P-reads-9).
      const named = orderConnections(['émile', 'zed', 'Alpha'].map((name, id) => ({ id, name, status: 'error' })));
      expect(named.map((c) => c.name)).toEqual(['Alpha', 'zed', 'émile']);
    });
  });

  describe('GET /domains', () => {
    it('lists the domains and summarises them (D22)', async () => {
      const { items, summary } = await data('/domains');
      expect(items.map((x: { name: string }) => x.name)).toEqual([
        'mine-bakery.test',
        'mine-buns.test',
        'mine-cakes.test',
      ]);
      expect(items[2]).toEqual({
        id: expect.any(Number),
        name: 'mine-cakes.test',
        registrar: 'Gandi',
        status: 'unpaid',
        renewal_on: '2026-12-05',
        amount_cents: 2500,
        currency: 'GBP',
        broker_name: 'Sedo',
        notes: 'Reminder sent',
      });
      expect(summary).toEqual({
        total: 3,
        live: 1,
        owing: 2,
        owing_amount: 2500,
        currency: 'GBP',
        broker: 'Sedo',
        broker_configured: true,
        next: { id: items[2].id, name: 'mine-cakes.test', renewal_on: '2026-12-05' },
      });
    });

    it('a desk with none has an empty summary', async () => {
      expect(await data('/domains', bare.key)).toEqual({
        items: [],
        summary: {
          total: 0,
          live: 0,
          owing: 0,
          owing_amount: 0,
          currency: 'EUR',
          broker: '',
          broker_configured: false,
          next: null,
        },
      });
    });
  });

  describe('GET /watches', () => {
    it('lists the watches', async () => {
      const { items } = await data('/watches');
      expect(items).toEqual([
        {
          id: expect.any(Number),
          subject_type: 'site',
          field: 'lease_end',
          label: 'Lease renewal',
          lead_days: 60,
          kind: 'lease_renewal',
          action: 'commit',
          every: '365',
          priority: 70,
        },
        {
          id: expect.any(Number),
          subject_type: 'van',
          field: 'mot_due',
          label: 'MOT',
          lead_days: 30,
          kind: 'mot',
          action: 'reach_out',
          every: null,
          priority: 60,
        },
      ]);
    });
  });

  describe('GET /permissions', () => {
    it('always lists the six classes, at zero on an empty desk', async () => {
      const p = await data('/permissions', bare.key);
      expect(Object.keys(p.classes).sort()).toEqual([...PERMISSION_CLASSES].sort());
      expect(p).toMatchObject({ unclassified: 0, needs_you: 0, with_desk: 0 });
    });

    it('counts open rows as doing, asking or covered (D21), and they add up to the queue', async () => {
      const w = (over: Parameters<typeof makeWork>[2]) => makeWork(store.db, d.desk.id, over);
      await w({ class: 'reach_out' });
      await w({ class: 'reach_out' });
      await w({ class: 'reach_out', waiting_on: 'Sam', status: 'waiting' });
      await w({ class: 'chase', status: 'in_progress' });
      await w({ class: 'file' });
      await w({ class: 'money' });
      await w({ class: 'sign', waiting_on: 'Notary' });
      await w({ class: null });
      await w({ class: null, waiting_on: 'Jo' });
      await w({ class: 'reach_out', status: 'done', closed_at: TEST_NOW });
      await w({ class: 'file', status: 'closed', closed_at: TEST_NOW });
      await makeWork(store.db, o.desk.id, { class: 'reach_out' });

      const p = await data('/permissions');
      expect(p.classes).toEqual({
        reach_out: { doing: 2, asking: 0, covered: 1 },
        chase: { doing: 1, asking: 0, covered: 0 },
        file: { doing: 0, asking: 1, covered: 0 },
        commit: { doing: 0, asking: 0, covered: 0 },
        money: { doing: 0, asking: 1, covered: 0 },
        sign: { doing: 0, asking: 0, covered: 1 },
      });
      expect(p).toMatchObject({ unclassified: 2, needs_you: 4, with_desk: 3 });
      const covered = Object.values(p.classes as Record<string, { covered: number }>).reduce(
        (s, c) => s + c.covered,
        0,
      );
      const { open_total } = await data('/work?limit=1');
      expect(p.needs_you + p.with_desk + covered).toBe(open_total);
      expect((await data('/me')).work.open).toBe(open_total);
    });
  });

  it('another desk sees only its own', async () => {
    expect((await data('/desk', o.key)).sections.map((s: { id: string }) => s.id)).toEqual([
      'theirs-obligations',
      'theirs-sites',
      'theirs-money',
      'other-kinds',
    ]);
    for (const path of ['/units', '/connections', '/domains']) {
      const { items } = await data(path, o.key);
      expect(items.length).toBeGreaterThan(0);
      for (const it of items) expect(it.name).toMatch(/^theirs/);
    }
    const mine = (await data('/watches')).items.map((w: { id: number }) => w.id);
    for (const w of (await data('/watches', o.key)).items) expect(mine).not.toContain(w.id);
    expect(await data('/units', bare.key)).toEqual({ items: [] });
    expect(await data('/connections', bare.key)).toEqual({ items: [] });
    expect(await data('/watches', bare.key)).toEqual({ items: [] });
  });
});
