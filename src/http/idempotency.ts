import { isUtf8 } from 'node:buffer';
import { Ajv, type ErrorObject } from 'ajv';
import type { FastifyReply, FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { badRequest, DeskError } from '../domain/errors.ts';
import { logEvent } from '../domain/record.ts';
import { claimAnswered, claimOrWait, keepAnswer, letGo } from '../app/idempotency/claim.ts';
import type { DeskContext } from '../domain/context.ts';
import { answerFor, type HttpAnswer } from './errors.ts';
import { atomically, beginsAgain } from '../store/tx.ts';
import { isForeignKeyViolation } from '../store/dialect.ts';
import { echoed } from '../domain/text.ts';
import { timesGiven } from './headers.ts';

// Every write goes through `write()`: it replays answers stored under an Idempotency-Key
// (D25), waits for a call still in flight with the same key, stores 2xx and 4xx answers
// (never 5xx), and logs an api_write event for each write answered 2xx.

const KEY_CHARS = 200;
const ONE_KEY = 'Send one Idempotency-Key header; this request has more than one, and a retry must send the same key.';

/**
 * The key as the client wrote it: Node reads header bytes as Latin-1, so a key sent in UTF-8
 * is decoded again, and its first 200 characters (code points, never half of one) are used
 * (P-idempotency-3). Bytes that are not UTF-8 stay as Node read them.
 */
export function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  const read = Array.isArray(raw) ? raw[0] : raw;
  if (!read) return null;
  // Node joins two such headers with ", ": a key neither retry would send again.
  if (timesGiven(request.raw.rawHeaders, 'idempotency-key') > 1) throw badRequest(ONE_KEY);
  const bytes = Buffer.from(read, 'latin1');
  const key = isUtf8(bytes) ? bytes.toString('utf8') : read;
  return Array.from(key).slice(0, KEY_CHARS).join('');
}

async function perform(
  request: FastifyRequest,
  handler: () => Promise<unknown>,
  inTransaction = false,
): Promise<HttpAnswer> {
  try {
    // A refused body is an answer like any other 4xx: stored under the key and replayed.
    if (request.validationError) throw request.validationError;
    return { status: 200, body: { data: await handler() } };
  } catch (err) {
    // The transaction it ran in decides these (store/tx.ts): begun again whole, or the desk found
    // deleted under the write.
    if (inTransaction && (beginsAgain(err) || isForeignKeyViolation(err))) throw err;
    return answerFor(err, request);
  }
}

/**
 * The bytes of an answer as this route sends them. A replay sends these stored bytes as they
 * are, never through another route's serialiser: a key may be reused on a different route, and
 * the first answer is what comes back, unchanged (D25).
 */
function serialise(reply: FastifyReply, answer: HttpAnswer): string {
  const out = reply.code(answer.status).serialize(answer.body);
  return typeof out === 'string' ? out : Buffer.from(out as ArrayBuffer).toString('utf8');
}

function send(reply: FastifyReply, status: number, bytes: string): FastifyReply {
  if (status === 429) reply.header('retry-after', '60');
  if (status === 503) reply.header('retry-after', '1');
  return reply.code(status).type('application/json; charset=utf-8').send(bytes);
}

/** A write's work, given the context to do it in (a transaction's, on the one-commit path). */
export type WriteHandler = (ctx: DeskContext) => Promise<unknown>;

export interface WriteOptions {
  /**
   * The handler only reads and writes the store: no mail, browser or model, nothing that waits
   * on the world. Its work then commits together with the key's claim, the stored answer and
   * the api_write event, as one transaction (P-speed-6).
   */
  storeOnly?: boolean;
}

/** Stores or releases the answer under a key this call holds, and logs the api_write event of a 2xx. */
async function settle(
  tx: DeskContext,
  request: FastifyRequest,
  key: string | null,
  answer: HttpAnswer,
  bytes: string,
): Promise<void> {
  if (key) {
    if (answer.status >= 500) await letGo(tx, key);
    else await keepAnswer(tx, key, answer.status, bytes);
  }
  await logWrite(tx, request, answer);
}

async function logWrite(tx: DeskContext, request: FastifyRequest, answer: HttpAnswer): Promise<void> {
  if (answer.status >= 200 && answer.status < 300 && tx.actor.type === 'key') {
    await logEvent(tx, 'api_write', `${request.method} ${request.url.split('?')[0]}`, {
      key_prefix: tx.actor.keyPrefix,
      key_id: tx.actor.keyId,
      status: answer.status,
    });
  }
}

/** Why a one-commit write rolled back: the key was held elsewhere, or the answer is not a 2xx. */
class Undone {
  constructor(readonly answer?: HttpAnswer) {}
}

/**
 * The work, the key claimed with its answer, and the api_write event in one transaction. Gives
 * the bytes sent when all of it committed. Otherwise nothing it did is kept, and it gives the
 * answer the work came to: a refusal (4xx) is then stored as any other write's is, and a key
 * held by another call (found taken at the claim, after the work) is waited for or replayed, as
 * on the general path.
 */
async function inOneCommit(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string | null,
  handler: WriteHandler,
): Promise<{ bytes: string } | { answer?: HttpAnswer }> {
  try {
    const bytes = await atomically(request.ctx, async (tx) => {
      const answer = await perform(request, () => handler(tx), true);
      if (answer.status !== 200) throw new Undone(answer);
      const out = serialise(reply, answer);
      if (key && !(await claimAnswered(tx, key, answer.status, out))) throw new Undone();
      await logWrite(tx, request, answer);
      return out;
    });
    return { bytes };
  } catch (err) {
    return err instanceof Undone ? { answer: err.answer } : { answer: answerFor(err, request) };
  }
}

export async function write(
  request: FastifyRequest,
  reply: FastifyReply,
  handler: WriteHandler,
  opts: WriteOptions = {},
): Promise<FastifyReply> {
  const ctx = request.ctx;
  // A write reads what it has just written: nothing remembered at the version read before it
  // may answer for it (P-speed-5).
  ctx.seen = undefined;
  const key = idempotencyKey(request);

  let answer: HttpAnswer | undefined;
  if (opts.storeOnly && !request.validationError) {
    const once = await inOneCommit(request, reply, key, handler);
    if ('bytes' in once) return send(reply, 200, once.bytes);
    answer = once.answer;
    // A fault at the desk end (the database busy, say) kept nothing: no key to claim or let go.
    if (answer && answer.status >= 500) return send(reply, answer.status, serialise(reply, answer));
  }

  // Whether this call holds the key: only then does it store or release the answer.
  let owned = false;
  if (key) {
    const claim = await claimOrWait(ctx, key);
    owned = claim.owned;
    if (!claim.owned && claim.stored?.http_status != null && claim.stored.body !== null) {
      reply.header('idempotent-replayed', 'true');
      return send(reply, claim.stored.http_status, claim.stored.body);
    }
  }

  const done = answer ?? (await perform(request, () => handler(ctx)));
  const bytes = serialise(reply, done);
  const logged = done.status >= 200 && done.status < 300 && ctx.actor.type === 'key';
  // The stored answer and the api_write event are written together, in one commit.
  if ((key && owned) || logged) {
    try {
      await atomically(ctx, (tx) => settle(tx, request, owned ? key : null, done, bytes));
    } catch (err) {
      // The work is done and kept (a message may have gone), so its answer is what the caller
      // gets; a 500 would have it do the work again. What could not be recorded is logged.
      request.log.error({ err }, 'A write was done, but its answer or its api_write event could not be stored.');
      if (key && owned) await keepAlone(ctx, key, done, bytes);
    }
  }
  return send(reply, done.status, bytes);
}

/**
 * After the answer and its event failed to commit together: the answer alone under the key, so
 * that a retry replays it rather than waiting out the key's lease; failing that, the key let go.
 */
async function keepAlone(ctx: DeskContext, key: string, answer: HttpAnswer, bytes: string): Promise<void> {
  try {
    await atomically(ctx, (tx) => (answer.status >= 500 ? letGo(tx, key) : keepAnswer(tx, key, answer.status, bytes)));
  } catch {
    await letGo(ctx, key).catch(() => undefined);
  }
}

/**
 * A write whose body was refused unread (not JSON, too large, a NUL character) under a key that
 * already has an answer: sends that answer, as for any other body sent again with the key (the
 * contract's rule 3), and says so. False when the key has none: the refusal then answers,
 * unstored. (A boolean, not the reply: a reply is thenable, and an async function returning it
 * would hand its caller what the reply settles to, not the reply.)
 */
export async function replayUnread(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const key = idempotencyKey(request);
  const ctx = request.ctx;
  if (!key || ctx?.actor.type !== 'key' || request.method !== 'POST') return false;
  const claim = await claimOrWait(ctx, key);
  if (claim.owned) {
    await letGo(ctx, key);
    return false;
  }
  if (claim.stored?.http_status == null || claim.stored.body === null) return false;
  reply.header('idempotent-replayed', 'true');
  send(reply, claim.stored.http_status, claim.stored.body);
  return true;
}

// Write bodies are read exactly as sent: "3" is not the integer 3 and 2.5 is not 2 (D28).
// Path and header values are text on the wire, so they are still coerced.
// verbose: an unknown field's error carries the schema, so the answer can list the fields taken.
// validateSchema: our schemas are not checked against the meta-schema at each start (P-speed-4;
// the suite lints the live description instead).
const strictAjv = new Ajv({
  validateSchema: false,
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  strict: false,
  verbose: true,
});
const looseAjv = new Ajv({
  validateSchema: false,
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  strict: false,
});

const compileWriteSchema: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  // An Ajv function (false plus .errors) lets the route's schemaErrorFormatter word the answer.
  return (httpPart === 'body' ? strictAjv : looseAjv).compile(schema as object);
};

/**
 * Route options for a write: strict body validation, and a say-what-to-fix message for each
 * refused field (`messages[field]`; `messages['']` for a body that is not an object), else a
 * plain one naming the field.
 */
export function writeValidation(messages: Record<string, string>) {
  return {
    attachValidation: true,
    validatorCompiler: compileWriteSchema,
    schemaErrorFormatter: (errs: Array<Partial<ErrorObject>>, dataVar: string): DeskError => {
      const e = errs[0];
      if (dataVar !== 'body' || !e)
        return badRequest(`The request ${dataVar} is not valid${e?.message ? `: ${e.message}` : ''}.`);
      if (e.keyword === 'additionalProperties') return unknownField(e);
      // `{"bdy": "x"}`: the field is missing because it was misspelt. The answer still asks for
      // the missing field as the route words it, and names the stray one too.
      const stray = e.keyword === 'required' ? strayField(e) : undefined;
      if (stray !== undefined) {
        const missing = (e.params as { missingProperty?: string } | undefined)?.missingProperty ?? '';
        return unknownField({ ...e, params: { additionalProperty: stray } }, messages[missing]);
      }
      const path = (e.instancePath ?? '').replace(/^\//, '').split('/')[0] ?? '';
      const field = path || ((e.params as { missingProperty?: string } | undefined)?.missingProperty ?? '');
      // A value of the wrong type says what it was, where the route words that (`field:type`).
      const typed = e.keyword === 'type' ? messages[`${field}:type`] : undefined;
      if (field && typed) return badRequest(`${typed}; this one is ${jsonTypeOf(e.data)}.`);
      if (field && messages[field]) return badRequest(messages[field]);
      if (!field) return badRequest(messages[''] ?? 'The body must be a JSON object.');
      return badRequest(`"${echoed(field)}" ${e.message ?? 'is not valid'}.`);
    },
  };
}

/** What a JSON value is, in words: "a number", "null", "an array". */
function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return `a ${typeof v}`;
}

/** The first field of the body its schema does not take, if any. */
function strayField(e: Partial<ErrorObject>): string | undefined {
  const taken = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const data = e.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  return Object.keys(data).find((k) => !Object.hasOwn(taken, k));
}

/** `{"day": 7}` on snooze: name the stray field and the fields the route takes. */
function unknownField(e: Partial<ErrorObject>, first?: string): DeskError {
  const field = (e.params as { additionalProperty?: string } | undefined)?.additionalProperty ?? '';
  const taken = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  const takes = taken.length ? `it takes ${taken.map((f) => `"${f}"`).join(', ')}` : 'it takes no fields';
  const stray = `"${echoed(field)}" is not a field of this request; ${takes}.`;
  return new DeskError('bad_request', first ? `${first} ${stray}` : stray, {
    field: echoed(field),
    accepted: taken,
  });
}
