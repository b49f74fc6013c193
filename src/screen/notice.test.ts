import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../domain/context.ts';
import { carriedFor, toRowWith } from './notice.ts';

// The words of a form ride a signed cookie across the redirect, for that page, once.

const ctx = { config: { publicUrl: null } } as unknown as DeskContext;

describe('a notice carried across the redirect', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(cookie, { secret: 'a-secret-for-the-test-only-0123456789' });
    app.post('/work/:id/snooze', async (request, reply) =>
      toRowWith(ctx, reply, Number((request.params as { id: string }).id), { notice: 'Snoozed.', refused: false }),
    );
    app.get('/work/:id', async (request, reply) =>
      reply.send(carriedFor(request, reply, `/work/${(request.params as { id: string }).id}`)),
    );
  });
  afterAll(async () => {
    await app.close();
  });

  const cookieOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
    `desk_notice=${res.cookies.find((c) => c.name === 'desk_notice')!.value}`;

  it('redirects to the row with 303 and says the notice there once, clearing it', async () => {
    const posted = await app.inject({ method: 'POST', url: '/work/3/snooze' });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe('/work/3');
    const shown = await app.inject({ method: 'GET', url: '/work/3', headers: { cookie: cookieOf(posted) } });
    expect(shown.json()).toEqual({ notice: 'Snoozed.', refused: false });
    expect(shown.cookies.find((c) => c.name === 'desk_notice')?.value).toBe('');
  });

  it("is not said on another row's page, nor from a cookie the server did not sign", async () => {
    const posted = await app.inject({ method: 'POST', url: '/work/3/snooze' });
    const other = await app.inject({ method: 'GET', url: '/work/4', headers: { cookie: cookieOf(posted) } });
    expect(other.body).toBe('null');
    const forged = encodeURIComponent(JSON.stringify({ p: '/work/3', n: 'Forged.', r: false }));
    const read = await app.inject({ method: 'GET', url: '/work/3', headers: { cookie: `desk_notice=${forged}` } });
    expect(read.body).toBe('null');
  });
});
