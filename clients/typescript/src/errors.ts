/**
 * The desk answered with an error. Branch on `code` (the contract's machine-readable code, such
 * as `not_found` or `not_permitted`), never on `message`, which is for people.
 */
export class DeskApiError extends Error {
  override readonly name = 'DeskApiError';
  readonly status: number;
  readonly code: string;
  /** Extra context the desk gave, such as `permission` on `not_permitted`; null when none. */
  readonly details: Readonly<Record<string, unknown>> | null;
  /** The answer's `X-Request-Id`, to quote when asking the desk's owner about a failure. */
  readonly requestId: string | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details: Readonly<Record<string, unknown>> | null;
    requestId: string | null;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

/**
 * No answer came: the network failed or the call ran past its time-out, on every attempt. The
 * outcome of a write is then unknown; calling it again with the same `idempotencyKey` is safe.
 */
export class DeskConnectionError extends Error {
  override readonly name = 'DeskConnectionError';
  readonly timedOut: boolean;
  readonly attempts: number;

  constructor(init: { message: string; timedOut: boolean; attempts: number; cause: unknown }) {
    super(init.message, { cause: init.cause });
    this.timedOut = init.timedOut;
    this.attempts = init.attempts;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the contract's `{ error: { code, message, details? } }`, or says what came instead. */
export function errorFromAnswer(status: number, text: string, requestId: string | null): DeskApiError {
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
      code: error.code,
      message: error.message,
      details: isRecord(error.details) ? error.details : null,
      requestId,
    });
  }
  // Something between the client and the desk answered (a proxy's 502, say): keep the status,
  // and name the code after it so callers still have something to branch on.
  return new DeskApiError({
    status,
    code: `http_${status}`,
    message: `HTTP ${status} without a Desk error body`,
    details: null,
    requestId,
  });
}
