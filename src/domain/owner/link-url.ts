/** The address a sign-in token is opened at; the path is the screen's sign-in route. */
export function signInUrl(origin: string, token: string): string {
  return `${origin}/sign-in?token=${encodeURIComponent(token)}`;
}
