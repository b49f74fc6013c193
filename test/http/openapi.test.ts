import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// The description as a client generator reads it: names for every operation and shape, the
// statuses and headers each route really answers with, and bodies required only when a field is.

const OPERATIONS: Record<string, string> = {
  'get /openapi.json': 'getDescription',
  'get /': 'checkKey',
  'get /me': 'getMe',
  'get /desk': 'getDesk',
  'get /work': 'listWork',
  'get /work/{id}': 'getWork',
  'post /work/{id}/complete': 'completeWork',
  'post /work/{id}/snooze': 'snoozeWork',
  'post /work/{id}/draft': 'draftWork',
  'post /work/{id}/run': 'runWork',
  'get /arrangements': 'listArrangements',
  'post /arrangements/{id}/notes': 'addArrangementNote',
  'get /units': 'listUnits',
  'get /connections': 'listConnections',
  'get /domains': 'listDomains',
  'get /permissions': 'getPermissions',
  'get /watches': 'listWatches',
  'get /activity': 'listActivity',
  'get /events': 'listEvents',
  'post /chat': 'askDesk',
};

/** What `data` of each 200 is, by component name (or, for lists, the component of each item). */
const DATA: Array<[string, string, 'data' | 'items']> = [
  ['get /me', 'KeySummary', 'data'],
  ['get /work', 'WorkPage', 'data'],
  ['get /work/{id}', 'WorkDetail', 'data'],
  ['post /work/{id}/complete', 'CompleteAnswer', 'data'],
  ['post /work/{id}/snooze', 'SnoozeAnswer', 'data'],
  ['post /work/{id}/draft', 'DraftAnswer', 'data'],
  ['post /work/{id}/run', 'RunAnswer', 'data'],
  ['get /arrangements', 'Arrangement', 'items'],
  ['post /arrangements/{id}/notes', 'Note', 'data'],
  ['get /units', 'Unit', 'items'],
  ['get /connections', 'Connection', 'items'],
  ['get /domains', 'Domain', 'items'],
  ['get /permissions', 'PermissionSummary', 'data'],
  ['get /watches', 'Watch', 'items'],
  ['get /activity', 'ActivityEntry', 'items'],
  ['get /events', 'Event', 'items'],
  ['post /chat', 'ChatAnswer', 'data'],
];

// Every route can answer 400 for a request Node's parser refused before any route saw it
// (headers over 16 KiB, P-headers-3), so each declares it.
const KEYED = ['200', '400', '401', '403', '429', '500', '503'];
const WRITE_STATUSES: Array<[string, string[]]> = [
  ['post /work/{id}/complete', [...KEYED, '404', '413']],
  ['post /work/{id}/snooze', [...KEYED, '404', '413']],
  // The contract: draft answers 404 and nothing else of its own; a refusal is in the body.
  ['post /work/{id}/draft', [...KEYED, '404', '413']],
  ['post /work/{id}/run', [...KEYED, '404', '413']],
  ['post /arrangements/{id}/notes', [...KEYED, '404', '413']],
  ['post /chat', [...KEYED, '413']],
  ['get /openapi.json', ['200', '400', '429', '500', '503']],
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('the description a client is generated from', () => {
  let store: TestStore;
  let h: Harness;
  let doc: any;
  let ops: Array<[string, any]>;
  const op = (key: string) => {
    const [method, path] = key.split(' ') as [string, string];
    return doc.paths[path][method];
  };
  const dataOf = (key: string) => op(key).responses['200'].content['application/json'].schema.properties.data;

  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    doc = (await h.call('GET', '/api/v1/openapi.json')).json();
    ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, o]) => [`${method} ${path}`, o] as [string, any]),
    );
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('names every operation with its own plain verb, and describes it and its 200', () => {
    expect(Object.fromEntries(ops.map(([key, o]) => [key, o.operationId]))).toEqual(OPERATIONS);
    for (const [key, o] of ops) {
      expect(o.description?.length ?? 0, key).toBeGreaterThan(40);
      for (const [status, r] of Object.entries(o.responses as Record<string, { description: string }>))
        expect(r.description, `${key} ${status}`).not.toBe('Default Response');
    }
  });

  it('requires a body only where a field is required, and an absent body is answered as {}', async () => {
    const required = Object.fromEntries(
      ops.filter(([, o]) => o.requestBody).map(([k, o]) => [k, o.requestBody.required]),
    );
    expect(required).toEqual({
      'post /work/{id}/complete': false,
      'post /work/{id}/snooze': false,
      'post /arrangements/{id}/notes': true,
      'post /chat': true,
    });
    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, { due_date: '2026-12-01' });
    const snoozed = await h.call('POST', `/api/v1/work/${row.id}/snooze`, { key: d.key });
    expect(snoozed.statusCode).toBe(200);
    expect(snoozed.json().data.due_date).toBe('2026-12-04');
    const completed = await h.call('POST', `/api/v1/work/${row.id}/complete`, { key: d.key });
    expect(completed.statusCode).toBe(200);
    expect(completed.json().data.status).toBe('done');
  });

  it.each(DATA)('%s answers a named %s', (key, name, how) => {
    expect(doc.components.schemas[name], name).toBeDefined();
    const data = dataOf(key);
    if (how === 'data') expect(data).toEqual(ref(name));
    else expect(data.properties.items.items).toEqual(ref(name));
  });

  it.each(WRITE_STATUSES)('%s declares the statuses it can answer, and no other', (key, statuses) => {
    expect(Object.keys(op(key).responses).sort()).toEqual([...statuses].sort());
  });

  it('types each error by its code, and the details the contract shapes', () => {
    const schemas = doc.components.schemas;
    const names = [
      'BadRequestError',
      'UnauthorizedError',
      'NoDeskError',
      'NotPermittedError',
      'NotFoundError',
      'PayloadTooLargeError',
      'RateLimitedError',
      'UnavailableError',
      'InternalError',
    ];
    // Each is the Error envelope narrowed: a client that knows only Error reads every one of them.
    for (const name of names) expect(schemas[name].allOf[0], name).toEqual(ref('Error'));
    const errorOf = (name: string) => schemas[name].allOf[1].properties.error;
    expect(names.map((n) => errorOf(n).properties.code.enum)).toEqual(
      schemas.Error.properties.error.properties.code.enum.map((c: string) => [c]),
    );
    expect(errorOf('NotPermittedError').required).toContain('details');
    expect(errorOf('NotPermittedError').properties.details.required).toEqual(['permission']);
    expect(errorOf('InternalError').properties.details.required).toEqual(['request_id']);
    expect(Object.keys(errorOf('RateLimitedError').properties.details.properties)).toEqual(['retry_after_seconds']);
    expect(Object.keys(errorOf('BadRequestError').properties.details.properties)).toEqual([
      'field',
      'accepted',
      'allowed',
    ]);
    // Only run can be refused for want of a grant; every keyed route can answer no_desk.
    expect(op('post /work/{id}/run').responses['403'].content['application/json'].schema.anyOf).toEqual([
      ref('NoDeskError'),
      ref('NotPermittedError'),
    ]);
    for (const [key, o] of ops.filter(([k]) => k !== 'post /work/{id}/run' && k !== 'get /openapi.json'))
      expect(o.responses['403'].content['application/json'].schema, key).toEqual(ref('NoDeskError'));
  });

  it('describes the headers the answers carry, and the answers carry them', async () => {
    for (const [key, o] of ops) {
      const write = o.parameters?.some((p: { name: string }) => p.name === 'idempotency-key') ?? false;
      for (const [status, r] of Object.entries(o.responses as Record<string, { headers: Record<string, unknown> }>)) {
        const names = Object.keys(r.headers);
        expect(names, `${key} ${status}`).toEqual(
          expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
        expect(names.includes('Retry-After'), `${key} ${status}`).toBe(status === '429' || status === '503');
        expect(names.includes('Idempotent-Replayed'), `${key} ${status}`).toBe(
          write && ['200', '400', '403', '404'].includes(status),
        );
      }
    }
    for (const name of Object.keys(doc.components.headers)) expect(doc.components.headers[name].schema).toBeDefined();

    const d = await makeDesk(store.db);
    const row = await makeWork(store.db, d.desk.id, {});
    const first = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
      key: d.key,
      body: { days: 2 },
      headers: { 'idempotency-key': 'headers-1' },
    });
    const again = await h.call('POST', `/api/v1/work/${row.id}/snooze`, {
      key: d.key,
      body: { days: 2 },
      headers: { 'idempotency-key': 'headers-1' },
    });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    for (const res of [first, again, await h.call('GET', '/api/v1/me', { key: null })])
      for (const name of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(res.headers[name], name).toBeDefined();
  });

  it('describes {id} and limit as the integers of the contract, and ?token= as a way to send the key', () => {
    for (const [key, o] of ops) {
      for (const p of o.parameters ?? []) {
        if (p.name === 'id') expect(p.schema, key).toEqual({ type: 'integer', minimum: 1 });
        if (p.name === 'limit')
          expect(p.schema, key).toEqual({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
      }
    }
    expect(doc.components.securitySchemes.tokenQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'token' });
    expect(doc.security).toEqual([{ bearerKey: [] }, { tokenQuery: [] }]);
    expect(op('get /openapi.json').security).toEqual([]);
    // ?token= is taken on reads only: every write names the header alone.
    for (const [name, o] of ops) if (!name.startsWith('get ')) expect(o.security, name).toEqual([{ bearerKey: [] }]);
    expect(op('get /work').security).toBeUndefined();
  });

  it('gives examples that match their own schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: unknown) => void)(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const local = (schema: unknown) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object;
    let checked = 0;
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, any>)) {
      for (const example of schema.examples ?? []) {
        const validate = ajv.compile(local(schema));
        expect(validate(example), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    for (const [key, o] of ops) {
      const media = o.requestBody?.content['application/json'];
      if (media?.example === undefined) continue;
      const validate = ajv.compile(local(media.schema));
      expect(validate(media.example), `${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });
});
