import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { makeArrangement } from './writes-helpers.ts';
import { deeperThan } from '../../src/http/body.ts';

// Bodies no database can store get the same clear 400 on both, and write nothing.

describe.each(DIALECTS)('write bodies holding what no database can store ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  /** A desk of its own for each test, with an arrangement and an open row to aim writes at. */
  async function target() {
    const d = await makeDesk(store.db);
    const arr = await makeArrangement(store.db, d.desk.id);
    const row = await makeWork(store.db, d.desk.id, { title: 'Untouched' });
    return { d, arr, row };
  }

  async function expectNothingWritten(deskId: string, rowId: number): Promise<void> {
    expect(await store.db.selectFrom('activity').selectAll().where('desk_id', '=', deskId).execute()).toHaveLength(0);
    const writes = store.db
      .selectFrom('events')
      .selectAll()
      .where('desk_id', '=', deskId)
      .where('kind', '=', 'api_write');
    expect(await writes.execute()).toHaveLength(0);
    const row = await store.db.selectFrom('work').select('status').where('id', '=', rowId).executeTakeFirstOrThrow();
    expect(row.status).toBe('open');
  }

  it('a NUL character is refused with 400 bad_request on every write, and nothing is written', async () => {
    const { d, arr, row } = await target();
    const calls: Array<[string, unknown]> = [
      [`/api/v1/arrangements/${arr.id}/notes`, { body: 'a\u0000b' }],
      [`/api/v1/work/${row.id}/complete`, { note: 'done\u0000' }],
      [`/api/v1/work/${row.id}/complete`, { actor: 'x', 'odd\u0000key': 1 }],
      ['/api/v1/chat', { text: 'what is overdue?\u0000' }],
    ];
    for (const [url, body] of calls) {
      const res = await h.call('POST', url, { key: d.key, body });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toEqual({
        code: 'bad_request',
        message: 'The body contains a NUL character (\\u0000), which the desk cannot store.',
      });
    }
    await expectNothingWritten(d.desk.id, row.id);
  });

  it('text that is not JSON is refused saying where it stops being JSON, and nothing is written', async () => {
    const { d, arr, row } = await target();
    const calls: Array<[string, string, string]> = [
      [
        `/api/v1/work/${row.id}/snooze`,
        '{"days":7',
        'At line 1, column 10: expected , or } but found the end of the text.',
      ],
      [
        `/api/v1/work/${row.id}/complete`,
        "{'note': 'x'}",
        `At line 1, column 2: expected a field name in double quotes but found "'".`,
      ],
      [
        `/api/v1/arrangements/${arr.id}/notes`,
        '{"body":"a",}',
        'At line 1, column 12: a comma before }, where JSON takes none after the last entry.',
      ],
    ];
    for (const [url, payload, where] of calls) {
      const res = await h.call('POST', url, { key: d.key, payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code, url).toBe('bad_request');
      expect(res.json().error.message, url).toMatch(/not JSON/);
      expect(res.json().error.message.endsWith(` ${where}`), res.json().error.message).toBe(true);
    }
    await expectNothingWritten(d.desk.id, row.id);
  });

  it('a lone UTF-16 surrogate is refused the same way; a whole pair is text like any other', async () => {
    const { d, arr, row } = await target();
    // Escapes in the JSON text itself, as a client that cut a string mid-character sends them.
    const calls: Array<[string, string]> = [
      [`/api/v1/arrangements/${arr.id}/notes`, '{"body":"x\\ud83dy"}'],
      [`/api/v1/arrangements/${arr.id}/notes`, '{"body":"ok","actor":"\\udfff"}'],
      [`/api/v1/work/${row.id}/complete`, '{"note":"done \\ude00"}'],
      ['/api/v1/chat', '{"text":"what is overdue?\\ud800"}'],
    ];
    const post = (url: string, payload: string) =>
      h.call('POST', url, { key: d.key, payload, headers: { 'content-type': 'application/json' } });
    for (const [url, payload] of calls) {
      const res = await post(url, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error).toEqual({
        code: 'bad_request',
        message: expect.stringMatching(/^The body contains a lone UTF-16 surrogate/),
      });
    }
    await expectNothingWritten(d.desk.id, row.id);
    const pair = await post(`/api/v1/arrangements/${arr.id}/notes`, '{"body":"Rang them \\ud83d\\ude00"}');
    expect(pair.json().data.body).toBe('Rang them \u{1F600}');
    const stored = await store.db.selectFrom('activity').select('body').where('desk_id', '=', d.desk.id).execute();
    expect(stored.map((a) => a.body)).toEqual(['Rang them \u{1F600}']);
  });

  it('bytes that are not UTF-8 are refused the same way, whatever charset is named; UTF-8 is kept as sent', async () => {
    const { d, arr, row } = await target();
    // "café" in Latin-1: the é is the byte 0xE9, which in UTF-8 opens a character that never comes.
    const latin1 = (json: string) => Buffer.from(json, 'latin1');
    const calls: Array<[string, Buffer]> = [
      [`/api/v1/arrangements/${arr.id}/notes`, latin1('{"body":"caf\u00e9"}')],
      [`/api/v1/work/${row.id}/complete`, latin1('{"note":"caf\u00e9"}')],
      [
        '/api/v1/chat',
        Buffer.concat([Buffer.from('{"text":"what is overdue?'), Buffer.from([0xc3]), Buffer.from('"}')]),
      ],
    ];
    for (const [url, payload] of calls) {
      const res = await h.call('POST', url, {
        key: d.key,
        payload,
        headers: { 'content-type': 'application/json; charset=latin1' },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toEqual({
        code: 'bad_request',
        message: 'The body is not UTF-8 text (JSON is sent in UTF-8, whatever charset the Content-Type names).',
      });
    }
    await expectNothingWritten(d.desk.id, row.id);
    const ok = await h.call('POST', `/api/v1/arrangements/${arr.id}/notes`, {
      key: d.key,
      payload: Buffer.from('{"body":"caf\u00e9"}', 'utf8'),
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.json().data.body).toBe('caf\u00e9');
  });

  it('a body sent compressed (Content-Encoding) is refused by name and writes nothing; identity is plain', async () => {
    const { d, arr, row } = await target();
    const plain = '{"days":1}';
    for (const [coding, payload] of [
      ['gzip', gzipSync(plain)],
      ['br', Buffer.from(plain)],
    ] as const) {
      const res = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
        key: d.key,
        payload,
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
      });
      expect(res.statusCode, coding).toBe(400);
      expect(res.json().error).toEqual({
        code: 'bad_request',
        message: `The body is sent with Content-Encoding: ${coding}, which the desk does not read; send it unencoded.`,
      });
    }
    await expectNothingWritten(d.desk.id, row.id);
    const ok = await h.call('POST', `/api/v1/arrangements/${arr.id}/notes`, {
      key: d.key,
      payload: '{"body":"Plain"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'Identity' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('a UTF-8 byte-order mark before the JSON is read past, as RFC 8259 allows', async () => {
    const { d, arr } = await target();
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const res = await h.call('POST', `/api/v1/arrangements/${arr.id}/notes`, {
      key: d.key,
      payload: Buffer.concat([bom, Buffer.from('{"body":"Rang them"}', 'utf8')]),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.body).toBe('Rang them');
  });

  it('a field given twice in one object is refused where it repeats, and neither value is written', async () => {
    const { d, arr, row } = await target();
    // JSON.parse would keep the last of each: a 2-day snooze, an empty note, a note by "b".
    const calls: Array<[string, string, string]> = [
      [`/api/v1/work/${row.id}/snooze`, '{"days":400,"days":2}', 'At line 1, column 13: "days" is given twice'],
      // The same name spelt with an escape is the same field.
      [`/api/v1/work/${row.id}/snooze`, '{"days":2,"da\\u0079s":400}', 'At line 1, column 11: "days" is given twice'],
      [`/api/v1/work/${row.id}/complete`, '{"note":"x",\n "actor":"a", "actor":"b"}', 'At line 2, column 15: "actor"'],
      [`/api/v1/arrangements/${arr.id}/notes`, '{"body":"Rang them","body":""}', 'At line 1, column 21: "body"'],
      ['/api/v1/chat', '{"text":"what is overdue?","text":"hi"}', 'At line 1, column 28: "text"'],
    ];
    for (const [url, payload, where] of calls) {
      const res = await h.call('POST', url, { key: d.key, payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
      expect(res.json().error.message).toMatch(
        /^The body gives a field more than once in one object; send each field once\./,
      );
      expect(res.json().error.message).toContain(where);
    }
    await expectNothingWritten(d.desk.id, row.id);
    const untouched = await store.db.selectFrom('work').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect([untouched.due_date, untouched.priority]).toEqual([null, 50]);
    // Given once, the same field is taken.
    const ok = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
      key: d.key,
      payload: '{"days":2}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('write bodies nested too deep ($name)', ({ open }) => {
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

  it('100,000 nested arrays are a 400 naming the limit, not a 500, and nothing is written', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Untouched' });
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const url of ['/api/v1/chat', `/api/v1/work/${row.id}/complete`, `/api/v1/work/${row.id}/snooze`]) {
      const res = await h.call('POST', url, {
        key: d.key,
        payload: deep,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toEqual({
        code: 'bad_request',
        message: 'The body nests arrays or objects more than 64 deep; no route takes that.',
      });
    }
    expect(
      await store.db
        .selectFrom('events')
        .selectAll()
        .where('desk_id', '=', d.desk.id)
        .where('kind', '=', 'api_write')
        .execute(),
    ).toHaveLength(0);
    expect(
      (await store.db.selectFrom('work').select('due_date').where('id', '=', row.id).executeTakeFirstOrThrow())
        .due_date,
    ).toBeNull();
  });

  it('64 levels are within the limit, and brackets inside strings do not count', async () => {
    expect(deeperThan(`{"a":${'['.repeat(63)}${']'.repeat(63)}}`, 64)).toBe(false);
    expect(deeperThan(`{"a":${'['.repeat(64)}${']'.repeat(64)}}`, 64)).toBe(true);
    expect(deeperThan(`{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`, 64)).toBe(false);
    const res = await h.call('POST', '/api/v1/chat', {
      key: d.key,
      body: { text: `what is overdue? ${'['.repeat(200)}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('a path no route serves is 404 whatever its body, even one that is not JSON', async () => {
    for (const method of ['POST', 'PATCH', 'PUT'] as const) {
      const res = await h.call(method, '/api/v1/complete', {
        key: d.key,
        payload: '{"days":',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});
