import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeskContext } from '../../domain/context.ts';
import { FIRST_DAY, isBeforeFirstDay, isIsoDate } from '../../domain/dates.ts';
import { badRequest, notFound } from '../../domain/errors.ts';
import { positiveId } from '../../domain/input.ts';
import { createKey, listKeys, type KeySummary } from '../../domain/keys/create.ts';
import { expiryAfter } from '../../domain/keys/expiry.ts';
import { revokeKey } from '../../domain/keys/revoke.ts';
import { once } from '../once.ts';
import { KeysPage, RevokeKeyPage, type KeysView } from '../pages/keys.tsx';
import { csrfToken, fieldOf, formKey, html } from '../reply.ts';
import { signedIn } from './owner.ts';
import { noticeFor, toPageWith } from '../notice.ts';
import { echoed } from '../../domain/text.ts';

// The desk's API keys, over the verbs of `desk keys create/list/revoke`. The whole key lives
// only in this request's memory: what the form's idempotency record keeps is its id and prefix,
// so a resubmitted form says the key was made and never draws it a second time.

async function keysPage(
  ctx: DeskContext,
  reply: FastifyReply,
  extra: Pick<KeysView, 'made' | 'notice' | 'error' | 'typed'> = {},
  status = 200,
): Promise<FastifyReply> {
  const keys = await listKeys(ctx.db, ctx.desk.id);
  return html(
    reply,
    KeysPage({
      desk: ctx.desk.name,
      zone: ctx.desk.timezone,
      csrf: csrfToken(reply),
      keys: [...keys].sort((a, b) => b.id - a.id),
      createKey: formKey(),
      now: ctx.now(),
      ...extra,
    }),
    status,
  );
}

/** One of this desk's keys; another desk's key, or none, is not found. */
async function deskKey(ctx: DeskContext, request: FastifyRequest): Promise<KeySummary> {
  const raw = (request.params as { id: string }).id;
  const id = positiveId(raw);
  const key = id === null ? undefined : (await listKeys(ctx.db, ctx.desk.id)).find((k) => k.id === id);
  if (!key) throw notFound('key', raw);
  return key;
}

export async function keyScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/keys', async (request, reply) =>
    keysPage(signedIn(request), reply, { notice: noticeFor(request, reply, '/keys') }),
  );

  app.post('/keys', async (request, reply) => {
    const ctx = signedIn(request);
    const name = fieldOf(request.body, 'name');
    const expires = fieldOf(request.body, 'expires').trim();
    let secret: string | null = null;
    const r = await once(ctx, request, async () => {
      if (!name.trim())
        throw badRequest('A key needs a name, such as the program that will hold it.', { field: 'name' });
      if (expires && isBeforeFirstDay(expires))
        throw badRequest(`"${echoed(expires)}" is before ${FIRST_DAY}, the first day the desk keeps.`, {
          field: 'expires',
        });
      if (expires && !isIsoDate(expires))
        throw badRequest(`"${echoed(expires)}" is not a date; give the last day the key works.`, { field: 'expires' });
      const expiresAt = expires ? expiryAfter(ctx.desk.timezone, expires) : null;
      if (expiresAt && expiresAt <= ctx.now())
        throw badRequest('That day has passed; a key cannot expire in the past.', { field: 'expires' });
      const k = await createKey(ctx.db, { deskId: ctx.desk.id, name, expiresAt, now: ctx.now(), by: 'owner' });
      secret = k.key;
      return { name: k.name, prefix: k.prefix };
    });
    if (!r.ok) {
      if (r.error.code !== 'bad_request') throw r.error;
      const field = r.error.details?.field === 'expires' ? 'expires' : 'name';
      return keysPage(ctx, reply, { error: { field, message: r.error.message }, typed: { name, expires } }, 400);
    }
    return keysPage(ctx, reply, { made: { ...r.value, key: secret } });
  });

  app.get('/keys/:id/revoke', async (request, reply) => {
    const ctx = signedIn(request);
    const key = await deskKey(ctx, request);
    if (key.revoked_at) return reply.code(303).redirect('/keys');
    return html(
      reply,
      RevokeKeyPage({ desk: ctx.desk.name, zone: ctx.desk.timezone, csrf: csrfToken(reply), idem: formKey(), key }),
    );
  });

  app.post('/keys/:id/revoke', async (request, reply) => {
    const ctx = signedIn(request);
    const key = await deskKey(ctx, request);
    const r = await once(ctx, request, () => revokeKey(ctx.db, { keyId: key.id, now: ctx.now(), by: 'owner' }));
    if (!r.ok) throw r.error;
    return toPageWith(ctx, reply, '/keys', {
      notice: `Key "${key.name}" (${key.prefix}…) is revoked; a program using it is refused from its next request.`,
      refused: false,
    });
  });
}
