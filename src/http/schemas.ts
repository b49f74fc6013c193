import { Type, type TSchema } from '@sinclair/typebox';
import { ActionSchema, DeskSectionSchema, ErrorSchema, WorkItemSchema } from '../domain/contract/shared.ts';

// What the HTTP door adds to the contract's shapes (domain/contract): envelopes, error
// responses, path and query parameters, headers. Shared schemas with an $id become named
// components in /openapi.json and are referenced, not copied.

export {
  ActionSchema,
  DateString,
  DeskSectionSchema,
  ErrorSchema,
  Nullable,
  StringEnum,
  Timestamp,
  WorkItemSchema,
} from '../domain/contract/shared.ts';

/** Registered on the app so that routes can refer to them by $id. */
export const SHARED_SCHEMAS = [ErrorSchema, ActionSchema, WorkItemSchema, DeskSectionSchema];

export const Ref = {
  Error: Type.Ref('Error'),
  WorkItem: Type.Ref('WorkItem'),
  DeskSection: Type.Ref('DeskSection'),
};

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ data });
}

export function Items<T extends TSchema>(item: T) {
  return Envelope(Type.Object({ items: Type.Array(item) }));
}

/** A 429 says when to come back, in seconds, as the header and as details.retry_after_seconds. */
const RateLimited = Type.Unsafe({
  $ref: 'Error',
  description: 'Too many requests from this key, or from this address without a key.',
  headers: { 'retry-after': { type: 'integer', minimum: 1, description: 'Seconds to wait before trying again.' } },
});

/** The error responses a route can give, each as the Error envelope. */
export function errors(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, s === 429 ? RateLimited : Ref.Error]));
}

/** Errors every keyed route can give. */
export const KEYED_ERRORS = [400, 401, 403, 404, 413, 429, 500];

/**
 * A path id. Declared as integer-or-string so that `abc` reaches the handler and answers
 * 404 not_found (D20) rather than failing validation with 400.
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
      description: 'Identifies one intent; a repeat returns the first answer. First 200 characters used.',
    }),
  ),
});
