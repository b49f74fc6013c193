import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';

// D30 for the read routes: each under its tag, with its parameters and the statuses it can
// answer (every keyed route: 400 for a request no route could read, 401, 403 no_desk, 429, 500,
// 503; /work/{id} adds its 404), and response schemas precise enough for the harness's check to
// mean something.

const KEYED = ['200', '400', '401', '403', '429', '500', '503'];
const READS: Array<[string, string, string[], string[]]> = [
  ['/work', 'Work', ['limit', 'cursor', 'status', 'kind', 'arrangement'], KEYED],
  ['/work/{id}', 'Work', ['id'], [...KEYED, '404']],
  ['/arrangements', 'Arrangements', [], KEYED],
  ['/desk', 'Desk', [], KEYED],
  ['/units', 'Desk', ['type'], KEYED],
  ['/connections', 'Desk', [], KEYED],
  ['/domains', 'Desk', [], KEYED],
  ['/permissions', 'Desk', [], KEYED],
  ['/watches', 'Desk', [], KEYED],
  ['/activity', 'Record', ['limit'], KEYED],
  ['/events', 'Record', ['limit'], KEYED],
];

const ERROR_OF: Record<string, string> = {
  '400': 'BadRequestError',
  '401': 'UnauthorizedError',
  '403': 'NoDeskError',
  '404': 'NotFoundError',
  '429': 'RateLimitedError',
  '500': 'InternalError',
  '503': 'UnavailableError',
};

const jsonOf = (response: any) => response.content['application/json'].schema;
/** A `$ref` into the components, followed. */
const deref = (doc: any, schema: any) =>
  schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

/** Every object schema in a response, found by walking it (refs into components followed). */
function objects(schema: any, components: Record<string, any>, seen = new Set<any>()): any[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  if (typeof schema.$ref === 'string') return objects(components[schema.$ref.split('/').pop()], components, seen);
  const out = schema.type === 'object' ? [schema] : [];
  for (const v of Object.values(schema)) {
    if (Array.isArray(v)) for (const x of v) out.push(...objects(x, components, seen));
    else if (v && typeof v === 'object') out.push(...objects(v, components, seen));
  }
  return out;
}

describe('the description of the read routes', () => {
  let store: TestStore;
  let h: Harness;
  let doc: any;
  beforeAll(async () => {
    store = await sqliteStore();
    h = await harness(store);
    doc = (await h.call('GET', '/api/v1/openapi.json')).json();
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it.each(READS)('GET %s is tagged %s and declares its parameters and statuses', (path, tag, params, statuses) => {
    const op = doc.paths[path]?.get;
    expect(op, path).toBeDefined();
    expect(op.tags).toEqual([tag]);
    expect((op.parameters ?? []).map((p: { name: string }) => p.name).sort()).toEqual([...params].sort());
    expect(Object.keys(op.responses).sort()).toEqual([...statuses].sort());
    for (const s of statuses.filter((x) => x !== '200'))
      expect(jsonOf(op.responses[s]), `${path} ${s}`).toEqual({ $ref: `#/components/schemas/${ERROR_OF[s]}` });
  });

  it.each(READS)('GET %s describes every object it answers with', (path) => {
    const schema = doc.paths[path].get.responses['200'].content['application/json'].schema;
    const found = objects(schema, doc.components.schemas);
    expect(found.length).toBeGreaterThan(1);
    for (const o of found) {
      // Only the event's data is open by nature; every other object names its properties.
      if (o.additionalProperties === true) expect(o.description ?? '').toMatch(/Details of the entry/);
      else expect(Object.keys(o.properties ?? {}).length + (o.additionalProperties ? 1 : 0)).toBeGreaterThan(0);
    }
  });

  it('lists the work items by reference to the WorkItem component, and its status values', () => {
    const page = deref(doc, jsonOf(doc.paths['/work'].get.responses['200']).properties.data);
    expect(page.properties.items.items).toEqual({ $ref: '#/components/schemas/WorkItem' });
    expect(page.required.sort()).toEqual(['items', 'next_cursor', 'open_total']);
    const status = doc.paths['/work'].get.parameters.find((p: { name: string }) => p.name === 'status');
    expect(JSON.stringify(status.schema)).toContain('in_progress');
    const detail = deref(doc, jsonOf(doc.paths['/work/{id}'].get.responses['200']).properties.data);
    expect(detail.properties.work).toEqual({ $ref: '#/components/schemas/WorkItem' });
    expect(
      doc.paths['/desk'].get.responses['200'].content['application/json'].schema.properties.data.properties.sections
        .items,
    ).toEqual({ $ref: '#/components/schemas/DeskSection' });
  });

  it('WorkItem has all sixteen fields, required', () => {
    const w = doc.components.schemas.WorkItem;
    expect(w.required.sort()).toEqual(
      [
        'action',
        'allowed',
        'days_to_due',
        'days_waiting',
        'detail',
        'due_date',
        'has_draft',
        'id',
        'kind',
        'last_error',
        'overdue',
        'permission',
        'priority',
        'status',
        'title',
        'waiting_on',
      ].sort(),
    );
  });

  it('/permissions names all six classes as required', () => {
    const classes = deref(doc, jsonOf(doc.paths['/permissions'].get.responses['200']).properties.data).properties
      .classes;
    expect(classes.required.sort()).toEqual(['chase', 'commit', 'file', 'money', 'reach_out', 'sign']);
    expect(classes.additionalProperties).toBe(false);
  });
});
