import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonFault, lineAndColumn } from '../domain/business/json.ts';
import { DeskError } from '../domain/errors.ts';
import { unstorableIn } from '../domain/text.ts';

export const NOT_JSON = 'The body is not JSON this route can read; send a JSON object.';
const FIELD_TWICE = 'The body gives a field more than once in one object; send each field once.';
const NOT_UTF8 = 'The body is not UTF-8 text (JSON is sent in UTF-8, whatever charset the Content-Type names).';

/** Where text that JSON.parse refused stops being JSON, as a sentence to follow the refusal. */
function whereNotJson(text: string): string {
  const fault = jsonFault(text);
  if (!fault) return '';
  const { line, col } = lineAndColumn(text, fault.at);
  return ` At line ${line}, column ${col}: ${fault.what}.`;
}

/** A body refused before any route read it: no write started, and none may be stored for it. */
export class UnreadBody extends DeskError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** Whether an error refused the request's body before its route ran: ours, or Fastify's (too large). */
export function refusedUnread(err: unknown): boolean {
  return err instanceof UnreadBody || String((err as { code?: unknown })?.code ?? '').startsWith('FST_ERR_CTP_');
}

/**
 * Reads every request body as JSON, whatever its content type claims (P-5). An empty body on a
 * route whose fields are optional means {} (D28); text that is not JSON is a bad request, worded
 * by the route when it has something more helpful to say.
 */
export function readJsonBodies(app: FastifyInstance, notJson: string = NOT_JSON): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    // A compressed body would be read as its compressed bytes: refuse it by name instead.
    const coding = req.headers['content-encoding']?.trim();
    if (coding && coding.toLowerCase() !== 'identity') return done(new UnreadBody(encodedBody(coding)), undefined);
    // Node takes the chunks off a chunked body and leaves any other transfer coding on it.
    const transfer = req.headers['transfer-encoding']?.trim();
    if (transfer && transfer.toLowerCase() !== 'chunked')
      return done(new UnreadBody(encodedBody(transfer, 'Transfer-Encoding')), undefined);
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    // Read as UTF-8 whatever charset the header names (JSON is UTF-8); bytes that are not would
    // be stored as U+FFFD, text other than what was sent, as a lone surrogate would (P-bodies-3).
    if (!isUtf8(bytes)) return done(new UnreadBody(NOT_UTF8), undefined);
    // A byte-order mark before the JSON, as some editors and shells save it, is read past
    // (RFC 8259, 8.1).
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (text.trim() === '') return done(null, {});
    // Refused before parsing: whatever reads the value afterwards may recurse through it.
    if (deeperThan(text, MAX_DEPTH))
      return done(
        new UnreadBody(`The body nests arrays or objects more than ${MAX_DEPTH} deep; no route takes that.`),
        undefined,
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new UnreadBody(`${notJson}${whereNotJson(text)}`), undefined);
    }
    // JSON.parse keeps the last of a field given twice (`{"days": 400, "days": 2}`), where another
    // reader of the same bytes (a proxy, a log, the client's own check) may keep the first: which
    // was meant cannot be known, so neither is written (P-bodies-7).
    if (jsonFault(text)) return done(new UnreadBody(`${FIELD_TWICE}${whereNotJson(text)}`), undefined);
    // PostgreSQL cannot store a NUL character in text, and the two databases keep a lone
    // surrogate as different text; refuse both here, the same on both databases.
    const bad = unstorable(parsed);
    if (bad) return done(new UnreadBody(UNSTORABLE[bad]), undefined);
    done(null, parsed);
  });
}

function encodedBody(coding: string, header = 'Content-Encoding'): string {
  const named = coding.length > 40 ? `${coding.slice(0, 39)}…` : coding;
  return `The body is sent with ${header}: ${JSON.stringify(named).slice(1, -1)}, which the desk does not read; send it unencoded.`;
}

const MAX_DEPTH = 64;

/** Whether JSON text opens more than `max` arrays or objects inside one another (strings skipped). */
export function deeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const UNSTORABLE = {
  nul: 'The body contains a NUL character (\\u0000), which the desk cannot store.',
  surrogate:
    'The body contains a lone UTF-16 surrogate (a \\ud800-\\udfff escape with no partner), which is not text the desk can store.',
} as const;

/** The first thing in a parsed body, value or field name, that the desk cannot store as given. */
function unstorable(v: unknown): 'nul' | 'surrogate' | null {
  if (typeof v === 'string') return unstorableIn(v);
  if (Array.isArray(v)) {
    for (const x of v) {
      const bad = unstorable(x);
      if (bad) return bad;
    }
    return null;
  }
  if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const bad = unstorableIn(k) ?? unstorable(x);
      if (bad) return bad;
    }
  }
  return null;
}

// Fastify's own reading of a Content-Type header, so that what it would refuse is known exactly.
const ContentType = createRequire(import.meta.url)('fastify/lib/content-type.js') as {
  from(header: string): { isValid: boolean };
};

/**
 * Sets aside a Content-Type header that is not a media type at all (`json`, `a/b/c`, empty):
 * Fastify answers such a request 415 before any parser runs, where the API reads every body
 * as JSON whatever its type claims (P-5) and draft and run read none (P-writes-1). Called by
 * a hook every API request passes anyway, rather than by a hook of its own.
 */
export function setAsideNoMediaType(request: FastifyRequest): void {
  const type = request.headers['content-type'];
  if (type !== undefined && !ContentType.from(type).isValid) delete request.headers['content-type'];
}

/** For routes that take no body (draft, run): whatever is sent is not read, so it cannot be a 400. */
export function ignoreBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
}
