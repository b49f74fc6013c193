import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { revokeKey } from '../../src/domain/keys/revoke.ts';
import { deleteDesk } from '../../src/domain/desks/manage.ts';
import { createKey } from '../../src/domain/keys/create.ts';
import { Validator } from '@seriousme/openapi-schema-validator';

describe.each(DIALECTS)('meta routes on $name', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let d: Awaited<ReturnType<typeof makeDesk>>;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    d = await makeDesk(store.db, { name: 'Corner Bakery Ltd', slug: 'corner-bakery' });
    await makeWork(store.db, d.desk.id, { title: 'Open one' });
    await makeWork(store.db, d.desk.id, {
      title: 'Waiting one',
      status: 'waiting',
      waiting_on: 'Sam',
      waiting_since: '2026-11-20T09:00:00.000Z',
    });
    await makeWork(store.db, d.desk.id, {
      title: 'Closed today',
      status: 'done',
      closed_at: '2026-11-22T08:00:00.000Z',
    });
    await makeWork(store.db, d.desk.id, {
      title: 'Closed yesterday',
      status: 'closed',
      closed_at: '2026-11-21T08:00:00.000Z',
    });
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it('serves the OpenAPI 3.1 description without a key', async () => {
    const res = await h.call('GET', '/api/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('v1');
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    expect(doc.components.securitySchemes.bearerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['WorkItem', 'DeskSection', 'Error']));
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/me'].get.tags).toEqual(['Meta']);
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual([
      'Meta',
      'Work',
      'Arrangements',
      'Desk',
      'Record',
      'Chat',
    ]);
  });

  it('the description is a valid OpenAPI 3.1 document', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('GET / names the desk and nothing else', async () => {
    const res = await h.call('GET', '/api/v1/', { key: d.key });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { desk: { id: d.desk.id }, version: 'v1' } });
  });

  it('GET /me gives the key, the desk and counts', async () => {
    const res = await h.call('GET', '/api/v1/me', { key: d.key });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.key).toEqual({ id: d.keyId, name: 'test key', prefix: d.key.slice(0, 12) });
    expect(body.data.desk).toMatchObject({
      id: d.desk.id,
      name: 'Corner Bakery Ltd',
      slug: 'corner-bakery',
      plan: 'standard',
      status: 'active',
    });
    expect(body.data.work).toEqual({ open: 2, waiting: 1, closed_today: 1 });
  });

  it('accepts ?token= and a lower-case scheme word; the header wins over the token', async () => {
    expect((await h.call('GET', `/api/v1/me?token=${d.key}`)).statusCode).toBe(200);
    expect((await h.call('GET', '/api/v1/me', { headers: { authorization: `bearer ${d.key}` } })).statusCode).toBe(200);
    const both = await h.call('GET', `/api/v1/me?token=${d.key}`, { headers: { authorization: 'Bearer desk_nope' } });
    expect(both.statusCode).toBe(401);
    expect(both.headers['www-authenticate']).toBe('Bearer realm="desk", error="invalid_token"');
  });

  it('names the bearer scheme on a 401, and says the key is bad only when one came (RFC 6750)', async () => {
    const none = await h.call('GET', '/api/v1/me');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="desk"');
    const revoked = await h.call('GET', '/api/v1/me?token=desk_nope');
    expect(revoked.headers['www-authenticate']).toBe('Bearer realm="desk", error="invalid_token"');
    expect((await h.call('GET', '/api/v1/me', { key: d.key })).headers['www-authenticate']).toBeUndefined();
    // Another scheme is no bearer key at all; a bearer key in no shape to take is a bad request.
    const basic = await h.call('GET', '/api/v1/me', { headers: { authorization: 'Basic YTpi' } });
    expect(basic.headers['www-authenticate']).toBe('Bearer realm="desk"');
    expect(basic.json().error.message).toMatch(/^Send a key/);
    for (const authorization of ['Bearer', 'Bearer ', 'Bearer two words']) {
      const bare = await h.call('GET', '/api/v1/me', { headers: { authorization } });
      expect(bare.statusCode, authorization).toBe(401);
      expect(bare.headers['www-authenticate'], authorization).toBe('Bearer realm="desk", error="invalid_request"');
    }
    const two = await h.call('GET', '/api/v1/me', {
      headers: { authorization: [`Bearer ${d.key}`, `Bearer ${d.key}`] as unknown as string },
    });
    expect(two.headers['www-authenticate']).toBe('Bearer realm="desk", error="invalid_request"');
    const tokenOnWrite = await h.call('POST', `/api/v1/work/1/snooze?token=${d.key}`, { body: {} });
    expect(tokenOnWrite.headers['www-authenticate']).toBe('Bearer realm="desk", error="invalid_request"');
  });

  it('asks a write with no key for the header, the only place a write takes it', async () => {
    for (const headers of [{}, { authorization: 'Bearer' }, { authorization: 'Basic YTpi' }] as Record<
      string,
      string
    >[]) {
      const write = await h.call('POST', '/api/v1/work/1/snooze', { body: {}, headers });
      expect(write.statusCode).toBe(401);
      expect(write.json().error.message).toBe(
        'Send a key: Authorization: Bearer <key>. A write takes it in that header only.',
      );
    }
    const read = await h.call('GET', '/api/v1/me');
    expect(read.json().error.message).toBe(
      'Send a key: Authorization: Bearer <key>, or ?token=<key> for a quick browser check.',
    );
  });

  it('takes ?token= with spaces around it as the header takes them', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/api/v1/me?token=%20${d.key}%0A` });
    expect(res.statusCode).toBe(200);
  });

  it('takes ?token= on reads only: a write with it is refused and changes nothing', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Token write', due_date: '2026-12-01' });
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/work/${row.id}/snooze?token=${d.key}`,
      headers: { 'content-type': 'text/plain' },
      payload: '{"days":3}',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toEqual({
      code: 'unauthorized',
      message: 'A write sends its key in the Authorization header, Bearer <key>; ?token= is taken on reads only.',
    });
    const after = await store.db.selectFrom('work').select('due_date').where('id', '=', row.id).executeTakeFirst();
    expect(after?.due_date).toBe('2026-12-01');
  });

  it('answers 401 with a message asking for a key when none or a malformed header is sent', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Basic abc' },
      { authorization: 'Bearer' },
      { authorization: `Token ${d.key}` },
    ]) {
      const res = await h.call('GET', '/api/v1/me', { headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
      expect(res.json().error.message).toMatch(/send a key/i);
    }
  });

  it('answers 401 to two Authorization headers, even when the first holds a good key', async () => {
    const other = await makeDesk(store.db);
    const res = await h.call('GET', '/api/v1/me', {
      headers: { authorization: [`Bearer ${d.key}`, `Bearer ${other.key}`] as unknown as string },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatchObject({
      code: 'unauthorized',
      message: 'Send one Authorization header, Bearer <key>; this request has more than one.',
    });
  });

  it('answers 401 saying the key is not valid for unknown, revoked and expired keys', async () => {
    const unknown = await h.call('GET', '/api/v1/me', { key: `desk_${'x'.repeat(40)}` });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error.message).toMatch(/not valid/);
    // And says where a good one comes from.
    expect(unknown.json().error.message).toContain('desk keys create');

    const k = await createKey(store.db, { deskId: d.desk.id, name: 'to revoke', now: '2026-11-22T09:00:00.000Z' });
    expect((await h.call('GET', '/api/v1/me', { key: k.key })).statusCode).toBe(200);
    await revokeKey(store.db, { keyId: k.id, now: '2026-11-22T09:30:00.000Z' });
    const revoked = await h.call('GET', '/api/v1/me', { key: k.key });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/revoked/) });

    const e = await createKey(store.db, {
      deskId: d.desk.id,
      name: 'expiring',
      expiresAt: '2026-11-22T10:30:00.000Z',
      now: '2026-11-22T09:00:00.000Z',
    });
    expect((await h.call('GET', '/api/v1/me', { key: e.key })).statusCode).toBe(200);
    h.clock.advance(60 * 60 * 1000);
    expect((await h.call('GET', '/api/v1/me', { key: e.key })).statusCode).toBe(401);
    h.clock.advance(-60 * 60 * 1000);
  });

  it('answers 403 no_desk once the desk is deleted', async () => {
    const other = await makeDesk(store.db, { slug: 'short-lived' });
    await deleteDesk(store.db, other.desk.id);
    const res = await h.call('GET', '/api/v1/me', { key: other.key });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('no_desk');
  });

  it('answers unknown routes with 404 in the envelope and a request id', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/nothing-here'],
      ['GET', '/api'],
      ['HEAD', '/api/v2/me'],
      ['DELETE', '/api/v1/me'],
    ] as const) {
      const res = await h.call(method, url, { key: d.key });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      if (method !== 'HEAD') expect(res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      // The API's answer, not a page's: no screen headers, and never kept by a shared cache.
      expect(res.headers['content-security-policy'], `${method} ${url}`).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it("names each request with an id of the server's own, whatever id the caller sends", async () => {
    const sent = 'a b <script>';
    const ids = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await h.app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { authorization: `Bearer ${d.key}`, 'x-request-id': sent },
      });
      expect(res.statusCode).toBe(200);
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(2);
  });
});
