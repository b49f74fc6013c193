import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, reopenStore, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { addTimeline } from '../../src/store/repositories/events.ts';
import { itemOf, makeArrangement } from './writes-helpers.ts';

// GET /work and GET /work/{id}: the order of D17, limits (D18), filters, cursors (D19) and
// ids (D20). The desk's today is 2026-11-22.

describe.each(DIALECTS)('reading the queue ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  let o: Awaited<ReturnType<typeof makeDesk>>;
  let ids: Record<string, number>;
  let order: number[];
  let arrangementId: number;
  let theirArrangementId: number;
  let theirRow: number;

  const get = (url: string, key = d.key) => h.call('GET', `/api/v1${url}`, { key });
  const page = async (url: string, key = d.key) => {
    const res = await get(url, key);
    expect(res.statusCode).toBe(200);
    return res.json().data as {
      items: Array<Record<string, any> & { id: number }>;
      next_cursor: string | null;
      open_total: number;
    };
  };
  const idsOf = (p: { items: Array<{ id: number }> }) => p.items.map((i) => i.id);
  async function walk(url: string, key = d.key, from: string | null = null): Promise<number[]> {
    const seen: number[] = [];
    let cursor: string | null = from;
    for (let guard = 0; guard < 100; guard++) {
      const sep = url.includes('?') ? '&' : '?';
      const p = await page(cursor ? `${url}${sep}cursor=${encodeURIComponent(cursor)}` : url, key);
      seen.push(...idsOf(p));
      cursor = p.next_cursor;
      if (!cursor) return seen;
    }
    throw new Error('the walk did not end');
  }

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    d = await makeDesk(store.db, { grants: ['reach_out', 'chase'] });
    o = await makeDesk(store.db, { grants: ['reach_out'] });
    arrangementId = (await makeArrangement(store.db, d.desk.id)).id;
    theirArrangementId = (await makeArrangement(store.db, o.desk.id, 'Their lease')).id;
    const mk = async (title: string, over: Parameters<typeof makeWork>[2] = {}) =>
      (await makeWork(store.db, d.desk.id, { title, class: 'reach_out', contact_email: 'x@example.test', ...over })).id;
    ids = {
      a: await mk('a', { due_date: '2026-11-01', priority: 40, arrangement_id: arrangementId }),
      b: await mk('b', { due_date: '2026-11-20', priority: 90, kind: 'filing' }),
      c: await mk('c', { due_date: '2026-11-10', priority: 90 }),
      today: await mk('today', { due_date: '2026-11-22', priority: 100 }),
      e: await mk('e', { due_date: '2026-12-01', priority: 100, kind: 'filing', arrangement_id: arrangementId }),
      f: await mk('f', { due_date: null, priority: 100 }),
      g: await mk('g', {
        due_date: '2026-11-30',
        priority: 60,
        status: 'waiting',
        waiting_on: 'Sam',
        waiting_since: '2026-11-20',
      }),
      h: await mk('h', { due_date: null, priority: 60, status: 'in_progress' }),
      k: await mk('k', { due_date: null, priority: 60 }),
      done: await mk('done', { due_date: '2026-11-02', priority: 100, status: 'done', closed_at: TEST_NOW }),
      closed: await mk('closed', { priority: 100, status: 'closed', closed_at: TEST_NOW }),
    };
    order = ['c', 'b', 'a', 'today', 'e', 'f', 'g', 'h', 'k'].map((n) => ids[n]!);
    theirRow = (
      await makeWork(store.db, o.desk.id, {
        title: 'theirs',
        due_date: '2026-01-01',
        priority: 100,
        arrangement_id: theirArrangementId,
      })
    ).id;
    await makeWork(store.db, o.desk.id, { title: 'theirs too', priority: 99 });
    await makeDraft(store.db, d.desk.id, ids.c!);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  describe('GET /work', () => {
    it('lists open rows only, overdue first, then priority, due date (none last), id', async () => {
      const p = await page('/work');
      expect(idsOf(p)).toEqual(order);
      expect(p.next_cursor).toBeNull();
      expect(p.open_total).toBe(9);
    });

    it('each row is the work item the desk derives, with all sixteen fields', async () => {
      const p = await page('/work');
      for (const item of p.items) expect(item).toEqual(await itemOf(store.db, d.desk.id, item.id));
      const c = p.items.find((i) => i.id === ids.c)!;
      expect(c).toMatchObject({
        overdue: true,
        days_to_due: -12,
        has_draft: true,
        allowed: true,
        action: { type: 'run', label: 'Run it now' },
      });
      expect(p.items.find((i) => i.id === ids.today)).toMatchObject({ overdue: false, days_to_due: 0 });
      expect(p.items.find((i) => i.id === ids.g)).toMatchObject({
        days_waiting: 2,
        action: { type: 'wait', label: 'Waiting 2d' },
      });
      expect(p.items.find((i) => i.id === ids.f)).toMatchObject({
        due_date: null,
        days_to_due: null,
        overdue: false,
        days_waiting: null,
      });
    });

    it('open_total equals /me work.open and ignores filters and paging', async () => {
      const me = (await get('/me')).json().data.work;
      for (const q of [
        '',
        '?limit=1',
        '?status=waiting',
        '?kind=filing',
        '?kind=nothing',
        `?arrangement=${arrangementId}`,
        '?arrangement=abc',
      ]) {
        expect((await page(`/work${q}`)).open_total).toBe(me.open);
      }
      expect(me.open).toBe(9);
    });

    it('a walk with a small limit sees every open row once, in order, and ends with null', async () => {
      for (const limit of [1, 2, 4, 8, 9]) expect(await walk(`/work?limit=${limit}`)).toEqual(order);
      const last = await page('/work?limit=9');
      expect(last.next_cursor).toBeNull();
      const notLast = await page('/work?limit=8');
      expect(notLast.next_cursor).toEqual(expect.any(String));
    });

    it('keeps the day a walk began on when midnight passes during it', async () => {
      const first = await page('/work?limit=4');
      h.clock.set('2026-11-23T10:00:00.000Z');
      try {
        const seen = [...idsOf(first), ...(await walk('/work?limit=2', d.key, first.next_cursor))];
        expect(seen).toEqual(order);
        // A fresh walk on the new day puts the row due on the 22nd among the overdue.
        expect((await page('/work?limit=4')).items.map((i) => i.id)).toEqual([ids.today, ids.c, ids.b, ids.a]);
      } finally {
        h.clock.set(TEST_NOW);
      }
    });

    it.each([
      ['0', 1],
      ['-3', 1],
      ['1', 1],
      ['2.9', 2],
      ['7', 7],
      ['5000', 9],
      ['abc', 9],
      ['', 9],
      ['1e1', 9],
      ['%20', 9],
    ])('limit=%s gives %i rows', async (limit, n) => {
      expect((await page(`/work?limit=${limit}`)).items).toHaveLength(n);
    });

    it('filters by status, kind and arrangement in the query, so pages are full', async () => {
      expect(idsOf(await page('/work?status=waiting'))).toEqual([ids.g]);
      expect(idsOf(await page('/work?status=in_progress'))).toEqual([ids.h]);
      expect(await walk('/work?status=open&limit=2')).toEqual(order.filter((id) => id !== ids.g && id !== ids.h));
      expect(idsOf(await page('/work?kind=filing&limit=1'))).toEqual([ids.b]);
      expect(await walk('/work?kind=filing&limit=1')).toEqual([ids.b, ids.e]);
      expect(idsOf(await page(`/work?arrangement=${arrangementId}`))).toEqual([ids.a, ids.e]);
      expect(idsOf(await page(`/work?arrangement=${arrangementId}&kind=filing`))).toEqual([ids.e]);
      expect(idsOf(await page(`/work?arrangement=${arrangementId}&status=waiting`))).toEqual([]);
    });

    it.each(['nothing', 'FILING', ''])('an unknown kind %j gives an empty page', async (kind) => {
      const p = await page(`/work?kind=${kind}`);
      expect(p).toEqual({ items: [], next_cursor: null, open_total: 9 });
    });

    it.each(['abc', '1.5', '-1', '0', '99999999999999999999', '2147483648', '', 'null', '1e0'])(
      'arrangement=%j names nothing: an empty page',
      async (arr) => {
        expect(await page(`/work?arrangement=${arr}`)).toEqual({ items: [], next_cursor: null, open_total: 9 });
      },
    );

    it("another desk's arrangement gives an empty page, not its rows", async () => {
      expect(await page(`/work?arrangement=${theirArrangementId}`)).toEqual({
        items: [],
        next_cursor: null,
        open_total: 9,
      });
      expect(idsOf(await page(`/work?arrangement=${theirArrangementId}`, o.key))).toEqual([theirRow]);
    });

    it.each(['done', 'closed', 'bogus', 'OPEN', '', 'open,waiting'])(
      'status=%j is 400 naming the allowed values',
      async (status) => {
        const res = await get(`/work?status=${status}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('bad_request');
        expect(res.json().error.message).toMatch(/open, in_progress, waiting/);
      },
    );

    it('a repeated status takes its first value, like every repeated query parameter', async () => {
      const res = await get('/work?status=waiting&status=open');
      expect(res.statusCode).toBe(200);
      const statuses = res.json().data.items.map((i: { status: string }) => i.status);
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set(['waiting']));
    });

    it("never shows another desk's rows, and theirs never shows ours", async () => {
      const mine = await walk('/work?limit=3');
      expect(mine).not.toContain(theirRow);
      const theirs = await walk('/work?limit=1', o.key);
      expect(theirs).toHaveLength(2);
      for (const id of theirs) expect(order).not.toContain(id);
    });

    describe('cursors that do not read restart the list', () => {
      let first: Awaited<ReturnType<typeof page>>;
      beforeAll(async () => {
        first = await page('/work?limit=3');
      });
      const restarts = async (cursor: string, query = 'limit=3') => {
        const p = await page(`/work?${query}&cursor=${encodeURIComponent(cursor)}`);
        expect(p).toEqual(first);
      };

      it('tampered, truncated, extended or garbage', async () => {
        const c = first.next_cursor!;
        const [body, sig] = c.split('.') as [string, string];
        const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
        for (const bad of [
          `${flip(body, 4)}.${sig}`,
          `${body}.${flip(sig, 1)}`,
          c.slice(0, -2),
          `${c}x`,
          body,
          'garbage',
          '....',
          '%',
          'é',
          'x'.repeat(3000),
        ]) {
          await restarts(bad);
        }
      });

      it('a forged position with a borrowed signature', async () => {
        const sig = first.next_cursor!.split('.')[1];
        const forged = Buffer.from(JSON.stringify([2, '2026-11-22', 1, 60, '9999-12-32', ids.h])).toString('base64url');
        await restarts(`${forged}.${sig}`);
      });

      it("another desk's cursor", async () => {
        const theirs = (await page('/work?limit=1', o.key)).next_cursor!;
        await restarts(theirs);
      });

      it('a cursor made under other filters', async () => {
        const filtered = (await page('/work?limit=1&status=open')).next_cursor!;
        await restarts(filtered);
        const kind = (await page('/work?limit=1&kind=filing')).next_cursor!;
        await restarts(kind);
      });

      it('the same cursor with the same filters carries on', async () => {
        const c = (await page('/work?limit=1&kind=filing')).next_cursor!;
        expect(idsOf(await page(`/work?limit=1&kind=filing&cursor=${encodeURIComponent(c)}`))).toEqual([ids.e]);
      });
    });

    it('every server on the database reads the cursors of the others', async () => {
      const other = await reopenStore(store.target);
      const h2 = await harness({ ...other, target: store.target, close: other.close });
      try {
        const p1 = await page('/work?limit=4');
        const res = await h2.call('GET', `/api/v1/work?limit=5&cursor=${encodeURIComponent(p1.next_cursor!)}`, {
          key: d.key,
        });
        expect(res.json().data.items.map((i: { id: number }) => i.id)).toEqual(order.slice(4));
      } finally {
        await h2.close();
        await other.close();
      }
    });
  });

  describe('GET /work/{id}', () => {
    it('gives the work item, its messages and its timeline, oldest first', async () => {
      const id = ids.b!;
      await store.db
        .insertInto('activity')
        .values([
          {
            desk_id: d.desk.id,
            kind: 'message',
            obligation_id: id,
            arrangement_id: null,
            outcome_id: null,
            channel: 'email',
            direction: 'outbound',
            subject: 'First',
            body: 'Hello',
            to_address: 'x@example.test',
            status: 'sent',
            actor: 'desk',
            failure_reason: null,
            created_at: '2026-11-20T09:00:00.000Z',
            sent_at: '2026-11-20T09:05:00.000Z',
            approved_at: '2026-11-20T09:04:00.000Z',
          },
          {
            desk_id: d.desk.id,
            kind: 'message',
            obligation_id: id,
            arrangement_id: null,
            outcome_id: null,
            channel: 'email',
            direction: 'outbound',
            subject: 'Second',
            body: 'Again',
            to_address: 'x@example.test',
            status: 'drafted',
            actor: 'desk',
            failure_reason: null,
            created_at: '2026-11-21T09:00:00.000Z',
            sent_at: null,
            approved_at: null,
          },
          {
            desk_id: d.desk.id,
            kind: 'report',
            obligation_id: id,
            arrangement_id: null,
            outcome_id: null,
            channel: 'portal',
            direction: 'outbound',
            subject: null,
            body: 'Run report',
            to_address: null,
            status: 'recorded',
            actor: 'desk',
            failure_reason: null,
            created_at: '2026-11-21T10:00:00.000Z',
            sent_at: null,
            approved_at: null,
          },
        ])
        .execute();
      await addTimeline(store.db, {
        deskId: d.desk.id,
        workId: id,
        kind: 'drafted',
        text: 'The desk drafted a message to x@example.test.',
        at: '2026-11-20T08:00:00.000Z',
      });
      await addTimeline(store.db, {
        deskId: d.desk.id,
        workId: id,
        kind: 'sent',
        text: 'Sent to x@example.test.',
        at: '2026-11-20T09:05:00.000Z',
      });

      const res = await get(`/work/${id}`);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(Object.keys(data).sort()).toEqual(['messages', 'timeline', 'work']);
      expect(data.work).toEqual(await itemOf(store.db, d.desk.id, id));
      expect(data.work.has_draft).toBe(true);
      expect(data.messages.map((m: { subject: string }) => m.subject)).toEqual(['First', 'Second']);
      expect(data.messages[0]).toEqual({
        id: expect.any(Number),
        channel: 'email',
        direction: 'outbound',
        subject: 'First',
        body: 'Hello',
        status: 'sent',
        actor: 'desk',
        to: 'x@example.test',
        created_at: '2026-11-20T09:00:00.000Z',
        sent_at: '2026-11-20T09:05:00.000Z',
        approved_at: '2026-11-20T09:04:00.000Z',
      });
      expect(data.messages[1]).toMatchObject({ status: 'drafted', sent_at: null, approved_at: null });
      expect(data.timeline).toEqual([
        { kind: 'drafted', at: '2026-11-20T08:00:00.000Z', text: 'The desk drafted a message to x@example.test.' },
        { kind: 'sent', at: '2026-11-20T09:05:00.000Z', text: 'Sent to x@example.test.' },
      ]);
    });

    it('a row with no history has empty lists', async () => {
      const data = (await get(`/work/${ids.k}`)).json().data;
      expect(data).toMatchObject({ messages: [], timeline: [], work: { id: ids.k, action: { type: 'run' } } });
    });

    it('done and closed rows are readable, with no action', async () => {
      for (const id of [ids.done!, ids.closed!]) {
        const res = await get(`/work/${id}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data.work).toMatchObject({ id, action: null });
      }
    });

    it.each([
      'abc',
      '1.5',
      '-1',
      '0',
      '99999999999999999999',
      '2147483648',
      '1e400',
      '1e0',
      '%20',
      'null',
      '+1',
      '0x1',
    ])('id %j is 404 not_found', async (id) => {
      const res = await get(`/work/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'not_found', message: expect.stringContaining('work item') });
    });

    it("a missing id and another desk's id are both 404, alike", async () => {
      const missing = await get('/work/987654');
      const theirs = await get(`/work/${theirRow}`);
      for (const res of [missing, theirs]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
      expect(theirs.json().error.message.replace(String(theirRow), 'N')).toBe(
        missing.json().error.message.replace('987654', 'N'),
      );
    });
  });
});
