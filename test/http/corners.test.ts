import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, sqliteStore, type TestStore } from '../helpers/db.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { addConnection } from '../helpers/business.ts';
import { startSmtpServer, type TestSmtp, loopbackMailbox } from '../helpers/smtp.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { makeArrangement } from './writes-helpers.ts';
import { NOTE_MAX_CHARS } from '../../src/domain/arrangements/note.ts';

// The contract's corners an integrator finds with curl: stray body fields, bodies on routes that
// take none, repeated query parameters, odd note channels, notes cut at the limit, a failed
// complete's note, and 429 on the routes that needed no key.

describe.each(DIALECTS)("the contract's corners ($name)", ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    d = await makeDesk(store.db);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  const post = (url: string, body?: unknown, payload?: string) =>
    h.call('POST', `/api/v1${url}`, {
      key: d.key,
      ...(payload !== undefined ? { payload } : body !== undefined ? { body } : {}),
    });

  it('an unknown body field is a 400 naming it and the fields the route takes; nothing is written', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Book the inspection', due_date: '2026-11-30' });
    const arr = await makeArrangement(store.db, d.desk.id);
    const cases: Array<[string, unknown, string, string[]]> = [
      [`/work/${row.id}/snooze`, { day: 7 }, 'day', ['days']],
      [`/work/${row.id}/complete`, { notes: 'x' }, 'notes', ['note', 'actor']],
      [`/arrangements/${arr.id}/notes`, { body: 'hi', chanel: 'call' }, 'chanel', ['body', 'actor', 'channel']],
      ['/chat', { text: 'what is overdue?', txt: 1 }, 'txt', ['text']],
      // A required field misspelt: the stray spelling is named, not only the missing field.
      [`/arrangements/${arr.id}/notes`, { bdy: 'Rang them' }, 'bdy', ['body', 'actor', 'channel']],
      ['/chat', { txt: 'what is overdue?' }, 'txt', ['text']],
    ];
    for (const [url, body, field, accepted] of cases) {
      const res = await post(url, body);
      expect(res.statusCode, url).toBe(400);
      const e = res.json().error;
      expect(e.code).toBe('bad_request');
      expect(e.message, url).toContain(`"${field}" is not a field`);
      for (const a of accepted) expect(e.message, url).toContain(`"${a}"`);
      expect(e.details).toEqual({ field, accepted });
      // The contract's wording for a missing note body or chat text still comes first.
      if (field === 'bdy') expect(e.message).toMatch(/^Say something in body\. "bdy" is not a field/);
      if (field === 'txt' && !(body as { text?: string }).text) expect(e.message).toMatch(/^Say something in text/);
    }
    const after = await store.db
      .selectFrom('work')
      .select(['due_date', 'status'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ due_date: '2026-11-30', status: 'open' });
  });

  it('draft and run take no body and ignore one entirely, even one that is not JSON', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Nothing to draft' });
    for (const verb of ['draft', 'run']) {
      const bare = await post(`/work/${row.id}/${verb}`);
      const junk = await post(`/work/${row.id}/${verb}`, undefined, 'not json {');
      const extra = await post(`/work/${row.id}/${verb}`, { whatever: 1 });
      expect(junk.statusCode, verb).toBe(bare.statusCode);
      expect(extra.statusCode, verb).toBe(bare.statusCode);
      expect(junk.json(), verb).toEqual(bare.json());
    }
    expect((await post('/work/999999/draft', undefined, 'not json {')).statusCode).toBe(404);
  });

  it('a repeated query parameter takes its first value, never a 400', async () => {
    for (let i = 0; i < 8; i++) await makeWork(store.db, d.desk.id, { title: `Row ${i}` });
    const limited = await h.call('GET', '/api/v1/work?limit=3&limit=7', { key: d.key });
    expect(limited.statusCode).toBe(200);
    expect(limited.json().data.items).toHaveLength(3);
    const cursors = await h.call('GET', '/api/v1/work?cursor=a&cursor=b&limit=2', { key: d.key });
    expect(cursors.statusCode).toBe(200);
    expect(cursors.json().data.items).toHaveLength(2);
    for (const path of ['/activity', '/events']) {
      const res = await h.call('GET', `/api/v1${path}?limit=1&limit=9`, { key: d.key });
      expect(res.statusCode, path).toBe(200);
      expect(res.json().data.items.length, path).toBeLessThanOrEqual(1);
    }
  });

  it('a parameter after a thousand others is read, not dropped', async () => {
    const rows = [];
    for (let i = 0; i < 4; i++)
      rows.push(await makeWork(store.db, d.desk.id, { title: `Row ${i}`, kind: i ? 'filing' : 'repair' }));
    for (const row of rows) expect((await post(`/work/${row.id}/snooze`)).statusCode).toBe(200);
    const many = Array.from({ length: 1_000 }, (_, i) => `x${i}=1`).join('&');
    const narrowed = await h.call('GET', `/api/v1/work?${many}&kind=filing&limit=2`, { key: d.key });
    expect(narrowed.statusCode).toBe(200);
    const items = narrowed.json().data.items as { kind: string }[];
    expect(items).toHaveLength(2);
    expect(items.every((w) => w.kind === 'filing')).toBe(true);
    const refused = await h.call('GET', `/api/v1/work?${'&'.repeat(1_000)}&status=bogus`, { key: d.key });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('bad_request');
    const events = await h.call('GET', `/api/v1/events?${many}&limit=1`, { key: d.key });
    expect(events.json().data.items).toHaveLength(1);
    expect((await h.call('GET', '/api/v1/events', { key: d.key })).json().data.items.length).toBeGreaterThan(1);
  });

  it("a note's channel that is not a string is stored as note, with no error", async () => {
    const arr = await makeArrangement(store.db, d.desk.id);
    for (const channel of [5, null, { a: 1 }, 'email', 'call']) {
      const res = await post(`/arrangements/${arr.id}/notes`, { body: 'Rang them', channel });
      expect(res.statusCode, JSON.stringify(channel)).toBe(200);
      expect(res.json().data.channel).toBe(channel === 'call' ? 'call' : 'note');
    }
  });

  it('a note cut at the limit does not end in a space', async () => {
    const arr = await makeArrangement(store.db, d.desk.id);
    const body = `${'a'.repeat(NOTE_MAX_CHARS - 1)} tail`;
    const res = await post(`/arrangements/${arr.id}/notes`, { body });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.body).toBe('a'.repeat(NOTE_MAX_CHARS - 1));
  });

  it('a complete whose send fails keeps its note on the row', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Confirm the slot',
      contact_email: 'dan@mill.test',
      detail: 'Before.',
    });
    await makeDraft(store.db, d.desk.id, row.id);
    const res = await post(`/work/${row.id}/complete`, { note: 'try' });
    expect(res.json().data).toMatchObject({ failed: true, delivered: false, status: 'open' });
    const after = await store.db.selectFrom('work').select('detail').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after.detail).toBe('Before.\n\ntry');
  });
});

describe.each(DIALECTS)("a complete's note across a failed send and its retry ($name)", ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let smtp: TestSmtp;
  let d: Awaited<ReturnType<typeof makeDesk>>;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    smtp = await startSmtpServer({ mode: 'refuse' });
    d = await makeDesk(store.db);
    await addConnection(store.db, d.desk.id, {
      config: loopbackMailbox(smtp.port, 'desk@shop.test'),
    });
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
    await store.close();
  });

  const post = (url: string, body?: unknown) => h.call('POST', `/api/v1${url}`, { key: d.key, body });
  const detailOf = async (id: number) =>
    (await store.db.selectFrom('work').select('detail').where('id', '=', id).executeTakeFirstOrThrow()).detail;
  const refusedRow = async (title: string) => {
    smtp.setMode('refuse');
    const row = await makeWork(store.db, d.desk.id, { title, contact_email: 'dan@mill.test', detail: 'Before.' });
    await makeDraft(store.db, d.desk.id, row.id);
    const first = await post(`/work/${row.id}/complete`, { note: 'Rang Dan too' });
    expect(first.json().data).toMatchObject({ failed: true, status: 'open' });
    return row.id;
  };

  it('a retry that records the work by hand does not append the note again', async () => {
    const id = await refusedRow('Confirm the slot');
    const retry = await post(`/work/${id}/complete`, { note: 'Rang Dan too' });
    expect(retry.json().data).toMatchObject({ failed: false, status: 'done' });
    expect(await detailOf(id)).toBe('Before.\n\nRang Dan too');
  });

  it('a retry whose new draft is sent does not append the note again', async () => {
    const id = await refusedRow('Confirm the van');
    smtp.setMode('accept');
    expect((await post(`/work/${id}/draft`)).json().data.drafted).toBe(true);
    const retry = await post(`/work/${id}/complete`, { note: 'Rang Dan too' });
    expect(retry.json().data).toMatchObject({ failed: false, delivered: true });
    expect(await detailOf(id)).toBe('Before.\n\nRang Dan too');
  });

  it('the same note on a later complete, with no failure between, is appended again', async () => {
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Chase the deposit',
      detail: 'Before.',
      waiting_on: 'Dan',
      waiting_since: TEST_NOW,
    });
    for (let i = 0; i < 2; i++) {
      const res = await post(`/work/${row.id}/complete`, { note: 'Rang Dan' });
      expect(res.json().data).toMatchObject({ failed: false, status: 'waiting' });
    }
    expect(await detailOf(row.id)).toBe('Before.\n\nRang Dan\n\nRang Dan');
  });
});

describe('429 on the routes that take no key', () => {
  let store: TestStore;
  let h: Harness;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store, { config: { rateLimitPerMinute: 2 } });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('GET /openapi.json declares 429 with Retry-After, and a keyless caller is told so in those words', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await h.call('GET', '/api/v1/openapi.json'));
    const limited = answers[2]!;
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toMatch(
      /^Too many requests from this address without a key; try again in \d+ s\.$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const doc = answers[0]!.json();
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>,
    )) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.responses['429'], `${method} ${path}`).toBeDefined();
        expect(op.responses['429']!.headers?.['Retry-After'], `${method} ${path}`).toBeDefined();
      }
    }
  });
});
