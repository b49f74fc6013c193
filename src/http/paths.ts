/**
 * A screen address that is not valid URL text (`/work/%ZZ`, `/%ff`) with its `%`s taken as
 * themselves, so that it reaches the screen's routes and is answered with their "Not found" page
 * (P-screen-1) rather than the API's envelope. An API path is left as it came: the router refuses
 * it, and the envelope's 404 says why (P-reads-3).
 */
export function screenAddress(url: string): string {
  if (!url.includes('%')) return url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path === '/api' || path.startsWith('/api/')) return url;
  try {
    decodeURIComponent(path);
    return url;
  } catch {
    return path.replaceAll('%', '%25') + (q === -1 ? '' : url.slice(q));
  }
}
