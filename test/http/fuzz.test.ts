import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { checkResponse } from '../helpers/openapi.ts';
import { makeArrangement } from './writes-helpers.ts';

// Odd requests against every route: methods, ids, queries, bodies, headers and reused
// idempotency keys, thousands of cases a run. Whatever arrives, the answer is never a 5xx, is
// always the envelope, a 4xx writes nothing, and every answer (its status too) matches /openapi.json. The seed is
// printed so a failure replays: DESK_FUZZ_SEED=<seed> (and DESK_FUZZ_RUNS to change the count).

const RUNS = Number(process.env.DESK_FUZZ_RUNS || 5000);
const SEED = Number(process.env.DESK_FUZZ_SEED || Math.floor(Math.random() * 2 ** 31));

const ROUTES = [
  '/',
  '/me',
  '/desk',
  '/work',
  '/work/{id}',
  '/work/{id}/complete',
  '/work/{id}/snooze',
  '/work/{id}/draft',
  '/work/{id}/run',
  '/arrangements',
  '/arrangements/{id}/notes',
  '/units',
  '/connections',
  '/domains',
  '/permissions',
  '/watches',
  '/activity',
  '/events',
  '/chat',
  '/openapi.json',
  '/nowhere',
  '/work/{id}/nowhere',
];
const TABLES = ['work', 'activity', 'events', 'timeline', 'sections', 'grants', 'api_keys', 'desks'] as const;

describe.each(DIALECTS)('odd requests on every route ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let ids: {
    mine: string;
    theirs: string;
    row: number;
    doneRow: number;
    draftRow: number;
    arrangement: number;
    theirRow: number;
    theirArrangement: number;
  };
  let keys: { mine: string; theirs: string };

  beforeAll(async () => {
    store = await open();
    h = await harness(store, { config: { mailTimeoutMs: 500, runTimeoutMs: 2000 } });
    // No mailbox and no playbooks: every write finishes at once, and nothing leaves the machine.
    const mine = await makeDesk(store.db, { grants: ['reach_out', 'chase'] });
    const theirs = await makeDesk(store.db);
    const row = await makeWork(store.db, mine.desk.id, {
      title: 'Chase <b>the</b> quote',
      class: 'chase',
      contact_email: 'sam@example.test',
      due_date: '2026-12-01',
    });
    const draftRow = await makeWork(store.db, mine.desk.id, {
      title: 'Drafted',
      class: 'reach_out',
      contact_email: 'jo@example.test',
    });
    await makeDraft(store.db, mine.desk.id, draftRow.id);
    const doneRow = await makeWork(store.db, mine.desk.id, {
      title: 'Finished',
      status: 'done',
      closed_at: '2026-11-21T10:00:00.000Z',
    });
    const arrangement = await makeArrangement(store.db, mine.desk.id);
    const theirRow = await makeWork(store.db, theirs.desk.id, { title: 'Theirs' });
    const theirArrangement = await makeArrangement(store.db, theirs.desk.id);
    ids = {
      mine: mine.desk.id,
      theirs: theirs.desk.id,
      row: row.id,
      doneRow: doneRow.id,
      draftRow: draftRow.id,
      arrangement: arrangement.id,
      theirRow: theirRow.id,
      theirArrangement: theirArrangement.id,
    };
    keys = { mine: mine.key, theirs: theirs.key };
    console.log(`fuzz: ${RUNS} cases, seed ${SEED} (replay with DESK_FUZZ_SEED=${SEED})`);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  async function snapshot(): Promise<string> {
    // One statement for the whole picture: it runs before every case.
    const counts = TABLES.map((t) => sql`(select count(*) from ${sql.table(t)})`);
    const r = await sql<
      Record<string, unknown>
    >`select ${sql.join(counts)}, (select max(updated_at) from work) as updated, (select sum(priority) from work) as priority`.execute(
      store.db,
    );
    return JSON.stringify(Object.values(r.rows[0]!).map(String));
  }

  const odd = fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '0',
      '-1',
      '1e0',
      '+1',
      '0x1',
      '1.5',
      '99999999999999999999',
      'abc',
      '%ff',
      '%00',
      '..',
      'null',
      '[]',
      '💥',
      'a'.repeat(300),
    ),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
    fc.integer().map(String),
  );
  const idArb = fc.oneof(
    fc
      .constantFrom('row', 'doneRow', 'draftRow', 'arrangement', 'theirRow', 'theirArrangement')
      .map((k) => () => String(ids[k as keyof typeof ids])),
    odd.map((v) => () => v),
  );
  const queryArb = fc.array(
    fc.tuple(
      fc.constantFrom('limit', 'cursor', 'status', 'kind', 'arrangement', 'type', 'token', 'x'),
      fc.oneof(odd, fc.constantFrom('open', 'waiting', 'done', '7', '500', '-5', 'filing')),
    ),
    { maxLength: 4 },
  );
  const value = fc.oneof(
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      3,
      366,
      1e308,
      '3',
      '',
      'x',
      'a\u0000b',
      '<script>alert(1)</script>',
      [],
      {},
      [1, 'two'],
    ),
    fc.string({ maxLength: 40 }),
    fc.integer(),
  );
  const fields = fc.dictionary(
    fc.constantFrom('days', 'note', 'body', 'channel', 'text', 'actor', 'subject', 'day', 'x'),
    value,
    { maxKeys: 4 },
  );
  const bodyArb = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      '',
      ' ',
      'null',
      '[]',
      '{',
      '"text"',
      '12',
      '{"days":',
      '[[[[[[[[[[[[]]]]]]]]]]]]',
      `${'['.repeat(200)}${']'.repeat(200)}`,
    ),
    fields.map((f) => JSON.stringify(f)),
    fc.json({ maxDepth: 3 }),
  );
  const headersArb = fc.record({
    auth: fc.constantFrom('mine', 'mine', 'mine', 'theirs', 'none', 'junk', 'bearer-only', 'basic', 'lower'),
    idem: fc.oneof(fc.constant(null), fc.constantFrom('k1', 'k2', 'k3', ' ', 'x'.repeat(500), 'ünï')),
    type: fc.constantFrom(
      null,
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
    ),
  });
  const caseArb = fc.record({
    method: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'),
    route: fc.constantFrom(...ROUTES),
    id: idArb,
    query: queryArb,
    body: bodyArb,
    headers: headersArb,
  });

  it(`${RUNS} odd requests: never a 5xx, always the envelope, nothing written after a 4xx, every answer as described`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const path = `/api/v1${c.route.replace('{id}', c.id())}`;
        const qs = c.query.map(([k, v]) => `${k}=${v}`).join('&');
        const url = qs ? `${path}?${qs}` : path;
        const headers: Record<string, string> = {};
        const auth = {
          mine: `Bearer ${keys.mine}`,
          theirs: `Bearer ${keys.theirs}`,
          none: null,
          junk: 'Bearer desk_nope',
          'bearer-only': 'Bearer',
          basic: 'Basic dXNlcjpwYXNz',
          lower: `bearer ${keys.mine}`,
        }[c.headers.auth];
        if (auth) headers.authorization = auth;
        if (c.headers.idem !== null) headers['idempotency-key'] = c.headers.idem;
        if (c.headers.type !== null) headers['content-type'] = c.headers.type;
        const before = await snapshot();
        const res = await h.app.inject({
          method: c.method as 'GET',
          url,
          headers,
          ...(c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD' ? { payload: c.body } : {}),
        });
        const where = `${c.method} ${url} [${JSON.stringify(c.body)?.slice(0, 200)}] ${JSON.stringify(headers)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (c.method === 'HEAD') return;
        const body = JSON.parse(res.body);
        // A replay is the first answer under that key, which may have come from another route.
        const replayed = res.headers['idempotent-replayed'] === 'true';
        // Every status a route answers is one its description lists, with the body it describes.
        const described = c.route !== '/openapi.json' && !c.route.endsWith('/nowhere');
        if (!replayed && described) await checkResponse(h.app, c.method, url, res);
        if (res.statusCode >= 400) {
          expect(Object.keys(body), where).toEqual(['error']);
          expect(typeof body.error.code, where).toBe('string');
          expect(typeof body.error.message, where).toBe('string');
          expect(await snapshot(), where).toBe(before);
        } else if (c.route !== '/openapi.json') {
          expect(Object.keys(body), where).toEqual(['data']);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
