import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DeskContext } from '../../domain/context.ts';
import { permissionSummary } from '../../domain/desks/permissions.ts';
import { DeskError } from '../../domain/errors.ts';
import { setGrant, ungrantableReason } from '../../domain/grants/manage.ts';
import { PERMISSION_CLASSES, type PermissionClass, UNGRANTABLE } from '../../domain/vocab.ts';
import { grantsOf } from '../../store/repositories/desks.ts';
import { once } from '../once.ts';
import { PermissionsPage, type PermissionsView, TITLE } from '../pages/permissions.tsx';
import { csrfToken, fieldOf, formKey, html } from '../reply.ts';
import { signedIn } from './owner.ts';
import { noticeFor, toPageWith } from '../notice.ts';
import { echoed } from '../../domain/text.ts';

// GET /permissions draws a switch per class; POST /permissions presses one, through the same
// grant verb as `desk grants set/unset`, so the events log says the owner did it.

const REASONS: Record<string, string> = Object.fromEntries(
  UNGRANTABLE.map((c) => {
    const why = ungrantableReason(c) ?? '';
    return [c, `${why.charAt(0).toUpperCase()}${why.slice(1)}: the desk prepares it and you do it.`];
  }),
);

async function permissionsPage(
  ctx: DeskContext,
  reply: FastifyReply,
  extra: Pick<PermissionsView, 'notice' | 'error'> = {},
  status = 200,
): Promise<FastifyReply> {
  const [summary, granted] = await Promise.all([permissionSummary(ctx), grantsOf(ctx.db, ctx.desk.id)]);
  const keys = Object.fromEntries(PERMISSION_CLASSES.map((c) => [c, formKey()]));
  return html(
    reply,
    PermissionsPage({
      desk: ctx.desk.name,
      csrf: csrfToken(reply),
      summary,
      granted,
      keys,
      reasons: REASONS,
      paused: !!ctx.desk.paused,
      ...extra,
    }),
    status,
  );
}

export async function permissionScreenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/permissions', async (request, reply) =>
    permissionsPage(signedIn(request), reply, { notice: noticeFor(request, reply, '/permissions') }),
  );

  app.post('/permissions', async (request, reply) => {
    const ctx = signedIn(request);
    const cls = fieldOf(request.body, 'class');
    const granted = fieldOf(request.body, 'granted') === 'yes';
    // No form offers these; a request that asks anyway is refused before anything is written.
    const why = ungrantableReason(cls);
    if (why) throw new DeskError('not_permitted', `"${echoed(cls)}" cannot be granted: ${why}.`);
    const r = await once(ctx, request, () =>
      setGrant(ctx.db, { deskId: ctx.desk.id, cls, granted, now: ctx.now(), by: 'owner' }),
    );
    if (!r.ok) {
      if (r.error.code !== 'bad_request') throw r.error;
      return permissionsPage(ctx, reply, { error: { cls, message: r.error.message } }, 400);
    }
    const words = granted ? 'may now do' : 'will now ask you before';
    // The class as its switch is titled: the owner pressed "Reach out", not "reach_out".
    const title = TITLE[cls as PermissionClass];
    return toPageWith(
      ctx,
      reply,
      '/permissions',
      { notice: `The desk ${words} "${title}" work.`, refused: false },
      `switch-${cls}`,
    );
  });
}
