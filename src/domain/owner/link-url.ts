/** How long a sign-in link can be opened; kept apart from the store so `desk --help` can name it cheaply. */
export const LINK_MINUTES = 15;

/** The address a sign-in token is opened at; the path is the screen's sign-in route. */
export function signInUrl(origin: string, token: string): string {
  return `${origin}/sign-in?token=${encodeURIComponent(token)}`;
}
