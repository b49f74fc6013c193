// A page asked for while signed out is kept in a cookie, so that the sign-in link, which
// always points at /sign-in, lands back on it. What comes back from the cookie is followed only
// when it is a page of this screen: a redirect built from it must never lead to another site.

export const RETURN_COOKIE = 'desk_return';

/** Long enough to fetch a sign-in link (each works 15 minutes) and follow it. */
export const RETURN_SECONDS = 60 * 60;

const MAX_LENGTH = 2000;
const HOME = 'http://screen.invalid';
const NOT_PAGES = /^\/(api|assets|sign-in|sign-out)(\/|$)/;

/** The path and query to go back to after signing in, or null when `raw` is not a page of this screen. */
export function returnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > MAX_LENGTH) return null;
  // One leading slash only: browsers read "//host" and "/\host" as another site.
  if (!raw.startsWith('/') || raw[1] === '/' || raw.includes('\\')) return null;
  if (/\p{Cc}/u.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, HOME);
  } catch {
    return null;
  }
  // Dot segments are resolved here ("/.//host" becomes "//host"), so what is followed is checked again.
  if (url.origin !== HOME || url.pathname.startsWith('//') || NOT_PAGES.test(url.pathname)) return null;
  return `${url.pathname}${url.search}`;
}
