import { DeskConnectionError, errorFromAnswer } from './errors.ts';

// One call, kept to the contract's client rules: a write carries one Idempotency-Key for all
// its attempts; network failures, time-outs, 429 and 5xx are retried with exponential back-off
// and jitter (a Retry-After, on a 429 or a stopping desk's 503, is honoured); any other 4xx is
// final.

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  retries?: number;
  /** The first back-off, doubled on each retry. Default 500 ms. */
  baseDelayMs?: number;
  /** The longest back-off between attempts. Default 20 s. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited out; the answer is thrown. Default 2 min. */
  maxRetryAfterMs?: number;
  /** How to wait between attempts; replace it to observe or shorten the waits. */
  wait?: (ms: number) => Promise<void>;
}

export interface TimeoutOptions {
  /** POST /work/{id}/run. Default 15 minutes: the contract says a run takes minutes. */
  run?: number;
  /** POST /chat. Default 5 minutes: longer than the desk's own 4, so its timed-out answer arrives. */
  chat?: number;
  /** Every other route. Default 30 s. */
  default?: number;
}

/** What each answer looked like, for logging: called for every attempt that got an answer. */
export interface AnswerInfo {
  method: string;
  path: string;
  status: number;
  requestId: string | null;
  /** The desk replayed the stored answer of an earlier call with the same Idempotency-Key. */
  replayed: boolean;
  /** 1 for the first attempt. */
  attempt: number;
  idempotencyKey: string | null;
}

/**
 * What the client asks of a `fetch`: Node's own, or another with types of its own (undici's,
 * without Node's 5-minute wait for an answer's headers), with no cast.
 */
export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; signal: AbortSignal; body?: string },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface TransportOptions {
  baseUrl: string;
  key: string;
  fetch?: Fetch;
  retries?: number | RetryOptions;
  timeouts?: TimeoutOptions;
  onAnswer?: (info: AnswerInfo) => void;
}

export interface ReadOptions {
  /** Cancels the call and its retries: the call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

export interface CallOptions extends ReadOptions {
  /** The intent's key; by default one is made per call and reused on each of its retries. */
  idempotencyKey?: string | undefined;
}

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  query?: object | undefined;
  body?: unknown;
  timeout: keyof TimeoutOptions;
  write: boolean;
  options?: CallOptions | undefined;
}

/**
 * Each longer than the desk's own limit on the verb (DESK_RUN_TIMEOUT 10 minutes, DESK_CHAT_TIMEOUT
 * 4), so the desk's answer saying it stopped arrives, rather than a cut and a retry under the
 * same key that would find the first call still under way.
 */
export const DEFAULT_TIMEOUTS: Required<TimeoutOptions> = { run: 15 * 60_000, chat: 5 * 60_000, default: 30_000 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `wait(ms)`, given up as soon as the caller's signal aborts: a cancelled call rejects at once
 * rather than sitting out its back-off or a Retry-After.
 */
async function pause(wait: (ms: number) => Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait(ms);
  signal.throwIfAborted();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([wait(ms), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential back-off with jitter: somewhere between half and all of base * 2^retry, capped. */
export function backoffMs(retry: number, base: number, max: number, random = Math.random): number {
  const ceiling = Math.min(max, base * 2 ** retry);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as Array<[string, unknown]>) {
    if (value === undefined || value === null) continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The `data` of a success, or undefined when the body is not the contract's `{ data }`. */
function dataOf<T>(text: string): T | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'data' in parsed) return (parsed as { data: T }).data;
  } catch {
    // Not JSON: said by the caller as an answer without a Desk body.
  }
  return undefined;
}

/**
 * A setting given as a number, or its default. A count or time that is no number (`NaN` from an
 * unset environment variable, say) would retry for ever or time out at once, so it is refused.
 */
function setting(name: string, value: number | undefined, fallback: number, least: number, most = MOST_MS): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < least || value > most)
    throw new TypeError(`${name} is a number from ${least} to ${most}; it was given ${String(value)}.`);
  return value;
}

/** The longest wait a timer keeps (about 24.8 days): past it, Node fires at once. */
const MOST_MS = 2 ** 31 - 1;

/** The base URL, refused at once when it is none, rather than failing each call as if the network had. */
function baseOf(baseUrl: string): string {
  // What was given, shown without a query or fragment, which may hold the key.
  const given = String(baseUrl).replace(/[?#][\s\S]*$/, '?…');
  // Spaces and line breaks around it (a URL read from a file) are no part of it, as for the key;
  // inside it, the URL parser would drop some and encode others, and every call would miss.
  const trimmed = String(baseUrl).trim();
  if (/[\s\p{Cc}]/u.test(trimmed))
    throw new TypeError(`baseUrl is one URL with no spaces or line breaks in it; it was given "${given}".`);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new TypeError(`baseUrl is a whole URL, such as http://127.0.0.1:8080/api/v1; it was given "${given}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl is an http or https URL; it was given "${given}".`);
  // Each call's path goes after the base: a query or fragment there would swallow it, and a
  // user name or password in it is sent by no fetch. Not echoed: it may hold the key.
  if (url.search !== '' || url.hash !== '' || trimmed.includes('?') || trimmed.includes('#'))
    throw new TypeError(
      "baseUrl ends at the API's path, such as http://127.0.0.1:8080/api/v1, with no query (?…) or fragment (#…); the key goes in key.",
    );
  if (url.username !== '' || url.password !== '')
    throw new TypeError('baseUrl holds no user name or password; the key goes in key.');
  return trimmed.replace(/\/+$/, '');
}

/**
 * Why a fetch got no answer, in the network's words: undici says only "fetch failed", with the
 * refusal ("connect ECONNREFUSED 127.0.0.1:8080", "getaddrinfo ENOTFOUND desk.test") in its cause.
 */
function whyNoAnswer(cause: unknown): string {
  const said = cause instanceof Error ? cause.message : String(cause);
  const inner = cause instanceof Error ? (cause.cause as { message?: unknown; code?: unknown } | undefined) : undefined;
  const why = typeof inner?.message === 'string' && inner.message !== '' ? inner.message : inner?.code;
  return typeof why === 'string' && why !== '' && !said.includes(why) ? `${said} (${why})` : said;
}

/** The key as a header carries it: Latin-1 text without line breaks, as every Desk key is. */
function keyOf(key: string): string {
  // Spaces and line breaks around it (a key read from a file) are no part of it, as HTTP has it.
  const trimmed = typeof key === 'string' ? key.trim() : '';
  if (trimmed === '' || /[^\x20-\x7e\xa0-\xff\t]/.test(trimmed))
    throw new TypeError('key is the API key the desk gave, text a header can carry; this one is not.');
  return trimmed;
}

export function createTransport(opts: TransportOptions) {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const retry = typeof opts.retries === 'number' ? { retries: opts.retries } : (opts.retries ?? {});
  const retries = Math.floor(setting('retries', retry.retries, 3, 0, Number.MAX_SAFE_INTEGER));
  const baseDelay = setting('retries.baseDelayMs', retry.baseDelayMs, 500, 0);
  const maxDelay = setting('retries.maxDelayMs', retry.maxDelayMs, 20_000, 0);
  const maxRetryAfter = setting('retries.maxRetryAfterMs', retry.maxRetryAfterMs, 120_000, 0);
  const wait = retry.wait ?? sleep;
  // Field by field, so a time-out left undefined keeps its default rather than becoming 0.
  const timeouts: Required<TimeoutOptions> = {
    run: setting('timeouts.run', opts.timeouts?.run, DEFAULT_TIMEOUTS.run, 1),
    chat: setting('timeouts.chat', opts.timeouts?.chat, DEFAULT_TIMEOUTS.chat, 1),
    default: setting('timeouts.default', opts.timeouts?.default, DEFAULT_TIMEOUTS.default, 1),
  };
  const base = baseOf(opts.baseUrl);
  const apiKey = keyOf(opts.key);

  return async function call<T>(req: Request): Promise<T> {
    const key = req.write ? (req.options?.idempotencyKey ?? globalThis.crypto.randomUUID()) : null;
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${apiKey}` };
    if (key !== null) headers['idempotency-key'] = headerValue(key);
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const url = base + req.path + queryString(req.query);
    const limitMs = timeouts[req.timeout];

    for (let attempt = 1; ; attempt++) {
      req.options?.signal?.throwIfAborted();
      const timer = new AbortController();
      const clock = setTimeout(() => timer.abort(), limitMs);
      const signal = req.options?.signal ? AbortSignal.any([timer.signal, req.options.signal]) : timer.signal;
      let status: number;
      let text: string;
      let answerHeaders: { get(name: string): string | null };
      try {
        const res = await doFetch(url, {
          method: req.method,
          headers,
          signal,
          ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        });
        // The body is read inside the time-out too: a desk that stalls mid-answer is no answer.
        text = await res.text();
        status = res.status;
        answerHeaders = res.headers;
      } catch (cause) {
        if (req.options?.signal?.aborted) throw req.options.signal.reason;
        const timedOut = timer.signal.aborted;
        if (attempt > retries) {
          throw new DeskConnectionError({
            message: timedOut
              ? `${req.method} ${req.path} had no answer within ${limitMs} ms`
              : `${req.method} ${req.path} failed: ${whyNoAnswer(cause)}`,
            timedOut,
            attempts: attempt,
            idempotencyKey: key,
            cause,
          });
        }
        await pause(wait, backoffMs(attempt - 1, baseDelay, maxDelay), req.options?.signal);
        continue;
      } finally {
        clearTimeout(clock);
      }

      const requestId = answerHeaders.get('x-request-id');
      const replayed = answerHeaders.get('idempotent-replayed') === 'true';
      opts.onAnswer?.({
        method: req.method,
        path: req.path,
        status,
        requestId,
        replayed,
        attempt,
        idempotencyKey: key,
      });

      const asked = retryAfterMs(answerHeaders.get('retry-after'));
      const facts = { requestId, retryAfterMs: asked, idempotencyKey: key, replayed };
      if (status >= 200 && status < 300) {
        const data = dataOf<T>(text);
        if (data === undefined) throw errorFromAnswer(status, text, facts);
        return data;
      }
      const retryable = status === 429 || status >= 500;
      if (!retryable || attempt > retries) throw errorFromAnswer(status, text, facts);
      if (asked !== null && asked > maxRetryAfter) throw errorFromAnswer(status, text, facts);
      await pause(wait, asked ?? backoffMs(attempt - 1, baseDelay, maxDelay), req.options?.signal);
    }
  };
}

export type Call = ReturnType<typeof createTransport>;

/**
 * A key as a header carries it: its UTF-8 bytes, one character each, which the desk reads back
 * as the key written (a header holds bytes, and `fetch` refuses any character past U+00FF). A
 * key with a line break or another control character is no key a header can carry: refused at
 * once, before anything is sent, rather than failing each attempt as if the network had. Nor
 * is one that begins or ends with spaces: HTTP drops them, so "   " would reach the desk as no
 * key at all (each retry doing the work again), and " k" and "k " as one key.
 */
function headerValue(key: string): string {
  if (key === '' || /\p{Cc}/u.test(key.replace(/\t/g, ' ')))
    throw new TypeError('An idempotencyKey is text without line breaks or other control characters.');
  // HTTP drops the spaces and tabs around a header's value, and only those.
  if (/^[ \t]*$/.test(key))
    throw new TypeError('An idempotencyKey is more than spaces, which HTTP leaves out: the desk would get no key.');
  if (/^[ \t]|[ \t]$/.test(key))
    throw new TypeError('An idempotencyKey neither begins nor ends with a space, which HTTP leaves out.');
  return Array.from(new TextEncoder().encode(key), (byte) => String.fromCharCode(byte)).join('');
}
