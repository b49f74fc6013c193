import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeskContext } from '../domain/context.ts';

// What a form did, carried across the redirect that follows it (Post/Redirect/Get): the page
// after a form is a page's own address, which can be reloaded or kept, and says once what was
// done. The words ride in a short-lived signed cookie that names the page they are for.

const NOTICE_COOKIE = 'desk_notice';
const NOTICE_SECONDS = 60;

export interface Carried {
  notice: string;
  refused: boolean;
}

/**
 * Answers the form with a redirect to `page` (an address of the screen), which will say `notice`;
 * `at` names the element the page opens at, the control that was pressed, for the focus to go back to.
 */
export function toPageWith(
  ctx: DeskContext,
  reply: FastifyReply,
  page: string,
  said: Carried,
  at?: string,
): FastifyReply {
  reply.setCookie(NOTICE_COOKIE, JSON.stringify({ p: page, n: said.notice, r: said.refused }), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicUrl?.startsWith('https://') ?? false,
    signed: true,
    maxAge: NOTICE_SECONDS,
  });
  return reply.code(303).redirect(at ? `${page}#${at}` : page);
}

/** Answers a row's form with a redirect to the row's page. */
export function toRowWith(ctx: DeskContext, reply: FastifyReply, id: number, said: Carried): FastifyReply {
  return toPageWith(ctx, reply, `/work/${id}`, said);
}

/** The words carried for `page`, once: the cookie goes whichever page of the screen reads it. */
export function carriedFor(request: FastifyRequest, reply: FastifyReply, page: string): Carried | null {
  const raw = request.cookies[NOTICE_COOKIE];
  if (raw === undefined) return null;
  reply.clearCookie(NOTICE_COOKIE, { path: '/' });
  const kept = reply.unsignCookie(raw);
  if (!kept.valid || kept.value === null) return null;
  try {
    const v = JSON.parse(kept.value) as { p?: unknown; n?: unknown; r?: unknown };
    return v.p === page && typeof v.n === 'string' ? { notice: v.n, refused: v.r === true } : null;
  } catch {
    return null;
  }
}

/** The notice carried for `page`, for a page that says only what was done. */
export function noticeFor(request: FastifyRequest, reply: FastifyReply, page: string): string | undefined {
  return carriedFor(request, reply, page)?.notice;
}
