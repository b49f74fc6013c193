// An ordinary form's body (application/x-www-form-urlencoded) read into a name → text map as
// URLSearchParams reads it (`+` a space, the last of a repeated name kept, a `%` that starts
// no escape kept as it is), except that the bytes its escapes stand for must be UTF-8: a form
// whose bytes are not is refused (P-bodies-3) rather than read with U+FFFD in their place.

const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/** The form's fields, or null when its bytes, escaped or not, are not UTF-8. */
export function readForm(body: Buffer): Record<string, string> | null {
  const fields: Record<string, string> = {};
  let text: string;
  try {
    text = STRICT.decode(body);
  } catch {
    return null;
  }
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodePart(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodePart(eq < 0 ? '' : pair.slice(eq + 1));
    if (name === null || value === null) return null;
    fields[name] = value;
  }
  return fields;
}

function decodePart(raw: string): string | null {
  const text = raw.replaceAll('+', ' ');
  if (!text.includes('%')) return text;
  const chunks: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(ESCAPES)) {
    chunks.push(Buffer.from(text.slice(last, m.index), 'utf8'), Buffer.from(m[0].replaceAll('%', ''), 'hex'));
    last = m.index + m[0].length;
  }
  chunks.push(Buffer.from(text.slice(last), 'utf8'));
  try {
    return STRICT.decode(Buffer.concat(chunks));
  } catch {
    return null;
  }
}
