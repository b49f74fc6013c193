// A form sent as multipart/form-data (the business file's upload) read into the same
// name → text map as an ordinary form. Only what a browser sends for a small form is read:
// text fields and files, each taken as UTF-8 text, a file's name under `NAME:filename` (no
// field of a form has a colon in its name); anything malformed is refused whole.

const CRLF = Buffer.from('\r\n');

export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

export function parseMultipart(body: Buffer, boundary: string): Record<string, string> | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const between = Buffer.concat([CRLF, delimiter]);
  const fields: Record<string, string> = {};
  let at = body.indexOf(delimiter);
  if (at !== 0) return null;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString('latin1') === '--') return fields;
    if (!body.subarray(at, at + 2).equals(CRLF)) return null;
    at += 2;
    const headEnd = body.indexOf('\r\n\r\n', at, 'latin1');
    if (headEnd < 0) return null;
    const head = body.subarray(at, headEnd).toString('utf8');
    const end = body.indexOf(between, headEnd + 4);
    if (end < 0) return null;
    const name = /^content-disposition:\s*form-data;(?:.*?;)?\s*name="([^"]*)"/im.exec(head)?.[1];
    if (name === undefined) return null;
    fields[name] = body.subarray(headEnd + 4, end).toString('utf8');
    const filename = /;\s*filename="([^"]*)"/i.exec(head)?.[1];
    if (filename !== undefined) fields[`${name}:filename`] = filename;
    at = end + CRLF.length;
  }
}
