import type { ErrorCode, ErrorDetails } from './types.ts';

/**
 * The desk answered with an error. Branch on `code` (the contract's machine-readable code, such
 * as `not_found` or `not_permitted`), never on `message`, which is for people. An answer that
 * did not come from the desk (a proxy's 502, say) has the code `http_` and its status.
 */
export class DeskApiError extends Error {
  override readonly name = 'DeskApiError';
  readonly status: number;
  readonly code: ErrorCode | `http_${number}`;
  /** Extra context the desk gave, such as `permission` on `not_permitted`; null when none. */
  readonly details: Readonly<Record<string, unknown>> | null;
  /** The answer's `X-Request-Id`, to quote when asking the desk's owner about a failure. */
  readonly requestId: string | null;
  /** How long the answer's `Retry-After` asked the caller to wait, in ms; null when it asked nothing. */
  readonly retryAfterMs: number | null;
  /**
   * The key every attempt of a write carried; null for a read. After a 5xx (a desk fault, or a
   * gateway that gave up while the desk may have done the work) the outcome is unknown: call
   * again with this key and the desk does the work at most once.
   */
  readonly idempotencyKey: string | null;
  /**
   * The desk sent the stored answer of an earlier call with the same Idempotency-Key
   * (`Idempotent-Replayed: true`): the refusal is about that call's request, not this one's.
   */
  readonly replayed: boolean;

  constructor(init: {
    status: number;
    code: ErrorCode | `http_${number}`;
    message: string;
    details: Readonly<Record<string, unknown>> | null;
    requestId: string | null;
    retryAfterMs?: number | null;
    idempotencyKey?: string | null;
    replayed?: boolean;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.idempotencyKey = init.idempotencyKey ?? null;
    this.replayed = init.replayed ?? false;
  }

  /**
   * Whether this is an error of `code`, and then its `details` typed as the contract gives them:
   * `if (err.is('not_permitted')) err.details?.permission`.
   */
  is<C extends ErrorCode>(code: C): this is DeskApiError & { code: C; details: ErrorDetails<C> | null } {
    return this.code === code;
  }
}

/**
 * No answer came: the network failed or the call ran past its time-out, on every attempt. The
 * outcome of a write is then unknown; calling it again with `{ idempotencyKey }` set to this
 * error's `idempotencyKey` is safe: the desk does it at most once.
 */
export class DeskConnectionError extends Error {
  override readonly name = 'DeskConnectionError';
  readonly timedOut: boolean;
  readonly attempts: number;
  /** The key every attempt of a write carried (made by the client when none was given); null for a read. */
  readonly idempotencyKey: string | null;

  constructor(init: {
    message: string;
    timedOut: boolean;
    attempts: number;
    idempotencyKey: string | null;
    cause: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.timedOut = init.timedOut;
    this.attempts = init.attempts;
    this.idempotencyKey = init.idempotencyKey;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the transport knows of an answer beyond its status and body. */
export interface AnswerFacts {
  requestId: string | null;
  retryAfterMs: number | null;
  idempotencyKey: string | null;
  replayed: boolean;
}

/** Reads the contract's `{ error: { code, message, details? } }`, or says what came instead. */
export function errorFromAnswer(status: number, text: string, facts: AnswerFacts): DeskApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : null;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new DeskApiError({
      status,
      // The desk's own codes are the contract's; a code it has never named is still passed on.
      code: error.code as ErrorCode,
      message: error.message,
      details: isRecord(error.details) ? error.details : null,
      ...facts,
    });
  }
  // Something between the client and the desk answered (a proxy's 502, say): keep the status,
  // and name the code after it so callers still have something to branch on.
  return new DeskApiError({
    status,
    code: `http_${status}`,
    // A success that is not the desk's (its screen's page, say) most often means a baseUrl
    // short of the API's path.
    message:
      status >= 200 && status < 300
        ? `HTTP ${status} with no Desk answer (JSON with data) in it: is baseUrl the desk's API, ending in /api/v1?`
        : `HTTP ${status} without a Desk error body`,
    details: null,
    ...facts,
  });
}
