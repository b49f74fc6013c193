import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Markup } from './jsx-runtime.ts';

export function html(reply: FastifyReply, page: Markup, status = 200): FastifyReply {
  // A form refused, drawn again with what is wrong: the tab's title says so first, as a screen
  // reader reads it when the page loads, before the page's own heading.
  const body =
    status === 400 || status === 403 || status === 409 ? page.html.replace('<title>', '<title>Not done: ') : page.html;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);
}

/** A key for one form: the server replays the first answer to any second submit of it. */
export const formKey = (): string => randomUUID();

export const SESSION_COOKIE = 'desk_session';

/**
 * What a form's CSRF token is bound to: the session cookie the browser sent (a hash of it), so a
 * token drawn for one session, with its secret cookie, is refused beside any other session.
 */
export function csrfBinding(request: FastifyRequest): string {
  const session = request.cookies[SESSION_COOKIE];
  // A browser with no session (agreeing to a sign-in link) has a mark too: an empty one is
  // refused by every token.
  return session ? createHash('sha256').update(session).digest('base64url') : 'no-session';
}

export function csrfToken(reply: FastifyReply): string {
  return reply.generateCsrf({ userInfo: csrfBinding(reply.request) });
}

/** A form value as text; fields a browser did not send read as empty. */
export function fieldOf(body: unknown, name: string): string {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : '';
}
