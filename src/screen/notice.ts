import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeskContext } from '../domain/context.ts';

// What a row's form did, carried across the redirect that follows it (Post/Redirect/Get): the
// page after a form is the row's own address, which can be reloaded or kept, and says once
// what was done. The words ride in a short-lived signed cookie that names the row they are for.

const NOTICE_COOKIE = 'desk_notice';
const NOTICE_SECONDS = 60;

export interface Carried {
  notice: string;
  refused: boolean;
}

/** Answers the form with a redirect to the row's page, which will say `notice`. */
export function toRowWith(ctx: DeskContext, reply: FastifyReply, id: number, said: Carried): FastifyReply {
  reply.setCookie(NOTICE_COOKIE, JSON.stringify({ id, n: said.notice, r: said.refused }), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicUrl?.startsWith('https://') ?? false,
    signed: true,
    maxAge: NOTICE_SECONDS,
  });
  return reply.code(303).redirect(`/work/${id}`);
}

/** The words carried for row `id`, once: the cookie goes whichever row's page reads it. */
export function carriedFor(request: FastifyRequest, reply: FastifyReply, id: number): Carried | null {
  const raw = request.cookies[NOTICE_COOKIE];
  if (raw === undefined) return null;
  reply.clearCookie(NOTICE_COOKIE, { path: '/' });
  const kept = reply.unsignCookie(raw);
  if (!kept.valid || kept.value === null) return null;
  try {
    const v = JSON.parse(kept.value) as { id?: unknown; n?: unknown; r?: unknown };
    return v.id === id && typeof v.n === 'string' ? { notice: v.n, refused: v.r === true } : null;
  } catch {
    return null;
  }
}
