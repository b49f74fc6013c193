import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

type Jar = Record<string, string>;

/**
 * A sign-in link used as the owner's browser uses it: opened, and agreed to on the page it opens
 * (unless the browser is already signed in to its desk). The cookies after it, as a Cookie
 * header's pairs.
 */
export async function signInWithLink(app: FastifyInstance, token: string, cookies: Jar = {}): Promise<Jar> {
  const opened = await app.inject({ method: 'GET', url: `/sign-in?token=${encodeURIComponent(token)}`, cookies });
  let jar = { ...cookies, ...Object.fromEntries(opened.cookies.map((c) => [c.name, c.value])) };
  if (opened.statusCode === 303) return jar;
  expect(opened.statusCode, opened.body).toBe(200);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(opened.body)?.[1];
  if (!csrf) throw new Error('no CSRF token on the sign-in page');
  const agreed = await app.inject({
    method: 'POST',
    url: '/sign-in',
    cookies: jar,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, token }).toString(),
  });
  expect(agreed.statusCode, agreed.body).toBe(303);
  jar = { ...jar, ...Object.fromEntries(agreed.cookies.map((c) => [c.name, c.value])) };
  return jar;
}
