import { type Static, Type, type TSchema } from '@sinclair/typebox';
import {
  ActionSchema,
  DeskSectionSchema,
  ErrorSchema,
  Nullable,
  StringEnum,
  WorkItemSchema,
} from '../domain/contract/shared.ts';
import type { ErrorCode } from '../domain/errors.ts';
import { SEND_A_KEY } from '../domain/keys/verify.ts';
import { INTERNAL_MESSAGE } from './errors.ts';

// What the HTTP door adds to the contract's shapes (domain/contract): envelopes, error
// responses, path and query parameters, headers. Shared schemas with an $id become named
// components in /openapi.json and are referenced, not copied.

export {
  ActionSchema,
  DateString,
  DeskSectionSchema,
  ErrorSchema,
  Nullable,
  RefTo,
  StringEnum,
  Timestamp,
  WorkItemSchema,
} from '../domain/contract/shared.ts';

/** One error answer: the envelope with its code fixed, and `details` where the contract shapes it. */
function errorOf(
  id: string,
  code: ErrorCode,
  description: string,
  example: { message: string; details?: Record<string, unknown> },
  details?: TSchema,
) {
  const narrowed = Type.Object({
    error: Type.Object({
      code: StringEnum([code]),
      message: Type.String({ description: 'For people; branch on code, never on this.' }),
      details: details ?? Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
  });
  // The Error envelope, narrowed: a client that knows only Error still reads every one of them.
  return Type.Unsafe<Static<typeof narrowed>>({
    $id: id,
    description,
    allOf: [{ $ref: 'Error' }, narrowed],
    examples: [{ error: { code, ...example } }],
  });
}

export const BadRequestErrorSchema = errorOf(
  'BadRequestError',
  'bad_request',
  'The request was understood and refused; fix it before sending it again.',
  { message: '"day" is not a field of this request; it takes "days".', details: { field: 'day', accepted: ['days'] } },
  Type.Optional(
    Type.Object(
      {
        field: Type.Optional(
          Type.String({
            description:
              'The body field the refusal is about: one the route does not take, or one whose value it refused.',
          }),
        ),
        accepted: Type.Optional(Type.Array(Type.String(), { description: 'The fields the route takes.' })),
        allowed: Type.Optional(Type.Array(Type.String(), { description: 'The values a refused parameter takes.' })),
      },
      { additionalProperties: true },
    ),
  ),
);
export const UnauthorizedErrorSchema = errorOf(
  'UnauthorizedError',
  'unauthorized',
  'No key, a malformed Authorization header, or a key that does not exist or was revoked. Not retryable.',
  { message: SEND_A_KEY },
);
export const NoDeskErrorSchema = errorOf(
  'NoDeskError',
  'no_desk',
  'The key is valid but its desk no longer exists. Permanent: disable the integration.',
  { message: 'The key is valid but its desk no longer exists. Disable this integration.' },
);
export const NotPermittedErrorSchema = errorOf(
  'NotPermittedError',
  'not_permitted',
  "The desk has not been granted the row's class of work; only the owner can grant it.",
  { message: 'The desk has not been granted "file" work.', details: { permission: 'file' } },
  Type.Object({
    permission: Nullable(
      Type.String({ description: "The row's permission class; null when the row is unclassified (permanent)." }),
    ),
  }),
);
export const NotFoundErrorSchema = errorOf(
  'NotFoundError',
  'not_found',
  'No such record on this desk, or it belongs to another desk (the two are indistinguishable). Skip the id.',
  { message: 'No work item 42 on this desk.' },
);
export const PayloadTooLargeErrorSchema = errorOf(
  'PayloadTooLargeError',
  'payload_too_large',
  'The request body is larger than 1 MiB.',
  { message: 'The request body is larger than 1 MiB.' },
);
export const RateLimitedErrorSchema = errorOf(
  'RateLimitedError',
  'rate_limited',
  'Too many requests from this key, or from this address without a key; wait Retry-After seconds.',
  { message: 'Too many requests for this key; try again in 12 s.', details: { retry_after_seconds: 12 } },
  Type.Optional(
    Type.Object(
      { retry_after_seconds: Type.Integer({ minimum: 1, description: 'The same as the Retry-After header.' }) },
      { additionalProperties: true },
    ),
  ),
);
const UNAVAILABLE =
  'The server is stopping, or its database is busy with another process, full or out of reach; retry after Retry-After seconds.';

export const UnavailableErrorSchema = errorOf(
  'UnavailableError',
  'unavailable',
  'The server is stopping and takes no new requests, or its database is busy with another process, full or out of reach; retry after Retry-After seconds, with the same Idempotency-Key.',
  { message: 'The desk is stopping; try again in a moment.' },
);
export const InternalErrorSchema = errorOf(
  'InternalError',
  'internal_error',
  'A fault at the desk end; the cause is only in the server log. Retry with back-off and the same Idempotency-Key.',
  { message: INTERNAL_MESSAGE, details: { request_id: '0b5f3c1e-8f1d-4a6b-9d4e-2c7a1e5b9f20' } },
  Type.Object(
    { request_id: Type.String({ description: 'The X-Request-Id of this answer, to find it in the log.' }) },
    { additionalProperties: true },
  ),
);

/** Registered on the app so that routes can refer to them by $id. */
export const SHARED_SCHEMAS = [
  ErrorSchema,
  ActionSchema,
  WorkItemSchema,
  DeskSectionSchema,
  BadRequestErrorSchema,
  UnauthorizedErrorSchema,
  NoDeskErrorSchema,
  NotPermittedErrorSchema,
  NotFoundErrorSchema,
  PayloadTooLargeErrorSchema,
  RateLimitedErrorSchema,
  UnavailableErrorSchema,
  InternalErrorSchema,
];

export const Ref = {
  Error: Type.Ref('Error'),
  WorkItem: Type.Ref('WorkItem'),
  DeskSection: Type.Ref('DeskSection'),
};

/** `{ data }`, with what the 200 means for this route as the response's description. */
export function Envelope<T extends TSchema>(data: T, description = 'The answer, in the success envelope.') {
  return Type.Object({ data }, { description });
}

export function Items<T extends TSchema>(item: T, description?: string) {
  return Envelope(Type.Object({ items: Type.Array(item) }), description);
}

/** An error response: the named error schema, said in this route's own words. */
const answer = (id: string, description: string) => Type.Unsafe({ $ref: id, description });

/** What any route answers with 400, before a route sees the request (P-headers-3). */
const UNREADABLE =
  'headers over 16 KiB in all (a long cursor or Idempotency-Key), or a request that is not readable HTTP.';

/**
 * What can go wrong on one route, beyond what every route behind a key can answer (400 for a
 * request no route could read, 401, 403 no_desk, 429, 500). Each entry says, in the route's
 * words, when that status comes back; a status a route cannot give is not listed.
 */
export interface RouteErrors {
  /** 400 bad_request. */
  badRequest?: string;
  /** 403 not_permitted, beside no_desk. */
  notPermitted?: string;
  /** 404 not_found. */
  notFound?: string;
  /** 413 payload_too_large: every route that reads a body. */
  tooLarge?: boolean;
}

/** The error responses of a route behind a key. */
export function keyedErrors(e: RouteErrors = {}): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  out[400] = answer(
    'BadRequestError',
    e.badRequest ? `${e.badRequest} On any route: ${UNREADABLE}` : `On any route: ${UNREADABLE}`,
  );
  out[401] = answer('UnauthorizedError', 'No key, a malformed Authorization header, or an unknown or revoked key.');
  out[403] = e.notPermitted
    ? Type.Union([Type.Ref('NoDeskError'), Type.Ref('NotPermittedError')], {
        description: `not_permitted: ${e.notPermitted} no_desk: the key's desk no longer exists. Branch on error.code.`,
      })
    : answer('NoDeskError', 'no_desk: the key is valid but its desk no longer exists.');
  if (e.notFound) out[404] = answer('NotFoundError', e.notFound);
  if (e.tooLarge) out[413] = answer('PayloadTooLargeError', 'The request body is larger than 1 MiB.');
  out[429] = answer('RateLimitedError', 'Too many requests from this key, or from this address without a key.');
  out[500] = answer('InternalError', 'A fault at the desk end; retry with back-off and the same Idempotency-Key.');
  out[503] = answer('UnavailableError', UNAVAILABLE);
  return out;
}

/** The errors of a public route: it is counted per address, so it can answer 429. */
export function publicErrors(): Record<number, TSchema> {
  return {
    400: answer('BadRequestError', `On any route: ${UNREADABLE}`),
    429: answer('RateLimitedError', 'Too many requests from this address.'),
    500: answer('InternalError', 'A fault at the desk end; try again.'),
    503: answer('UnavailableError', UNAVAILABLE),
  };
}

/** What every write may answer besides its own errors: a body over 1 MiB. */
export const WRITE_ERRORS: RouteErrors = { tooLarge: true };

/**
 * A path id. Declared as integer-or-string so that `abc` reaches the handler and answers
 * 404 not_found (D20) rather than failing validation with 400; /openapi.json describes it as
 * the contract does, an integer (see openapi.ts).
 */
export const IdParams = Type.Object({
  // String first, so that the id reaches parseId as written (Ajv would read `1e3` as 1000).
  id: Type.Union([Type.String(), Type.Integer()], { description: 'A positive integer id on this desk.' }),
});

/** `limit`: any value is accepted and brought into 1-200 (D18). */
// String first: the query is text, and Ajv would otherwise coerce a blank value to 0.
export const LimitParam = Type.Optional(
  Type.Union([Type.String(), Type.Integer()], {
    description: 'Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default.',
  }),
);

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        "Identifies one intent: the same on every retry of it, different between intents. A repeat returns the first answer unchanged and writes nothing, even on another route (the key is the desk's, and the answer is the first route's). First 200 characters used; kept 24 hours; an empty value is no key; sent twice, the request is refused (400).",
      examples: ['b1f6c8e2-5d0a-4c1e-9a57-3f2d8e6b7c40'],
    }),
  ),
});
