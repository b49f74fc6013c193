// Secrets masked in what the desk records or shows: a run's report and steps, a mail server's
// refusal that quotes the sign-in it was given.

/** Below this length a secret could be any word's letters ("u", "p"), so only a whole one is masked. */
export const SHORT_SECRET = 6;

/**
 * Replaces each secret with *** where it was used; shared by the runner, whoever records a
 * run, and the mail adapters. A long secret is masked wherever it appears; a short one only where it stands whole (not
 * inside a word), so that masking never garbles the report ("The run of ..." stays as written).
 */
export function masker(secrets: string[]): (s: string) => string {
  const patterns = secrets.flatMap((secret) =>
    spellings(secret).map((spelled) => {
      const escaped = spelled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // A page's text gives spaces back as it lays them out: several as one, one as a
      // non-breaking space, none at either end. A secret of spaces alone is matched as written.
      const text =
        spelled.trim() === ''
          ? escaped
          : escaped
              .replace(/^\s+/u, '\\s*')
              .replace(/\s+$/u, '\\s*')
              .replace(/(?<=.)\s+(?=.)/gu, '\\s+');
      // A short one stands whole: not inside a word, though a URL's %XX escape may touch it.
      return new RegExp(
        secret.length >= SHORT_SECRET
          ? text
          : `(?:(?<![\\p{L}\\p{N}])|(?<=%[0-9A-Fa-f]{2}))${text}(?:(?![\\p{L}\\p{N}])|(?=%[0-9A-Fa-f]{2}))`,
        'gu',
      );
    }),
  );
  return (s) => patterns.reduce((acc, re) => acc.replace(re, '***'), s);
}

/**
 * A secret as a page may give it back: as typed, and as a URL, a form, HTML or JSON writes it
 * (a portal that echoes what it was sent), longest first so the whole of one is masked.
 */
function spellings(secret: string): string[] {
  const url = encodeURIComponent(secret);
  const html = secret
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
  const json = JSON.stringify(secret).slice(1, -1);
  return [...new Set([secret, url, url.replaceAll('%20', '+'), html, json])].sort((a, b) => b.length - a.length);
}

/**
 * A mailbox's sign-in as a mail server may quote it back in a refusal: the password, and the
 * base64 the sign-in sent it in (AUTH PLAIN's user and password, AUTH LOGIN's password alone).
 */
export function signInMasker(user: string | null | undefined, pass: string | null | undefined): (s: string) => string {
  if (!pass) return (s) => s;
  const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64');
  return masker([b64(`\0${user ?? ''}\0${pass}`), b64(pass), pass].sort((a, b) => b.length - a.length));
}
