import { Type, type TSchema } from '@sinclair/typebox';
import { ACTION_TYPES, PERMISSION_CLASSES, SECTION_KINDS, WORK_STATUSES } from '../domain/vocab.ts';
import { ERROR_CODES } from '../domain/errors.ts';

// Schemas shared by several routes. Those with an $id become named components in
// /openapi.json and are referenced, not copied.

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export { Nullable };

/**
 * A closed set of strings as one `enum` schema rather than a union of constants: the
 * description reads the same, and the serializer writes the string instead of trying each
 * branch in turn.
 */
export const StringEnum = <T extends string>(values: readonly T[], opts: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });

export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' });

export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
      message: Type.String(),
      details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
  },
  { $id: 'Error', description: 'Every failure: branch on code, show message to people.' },
);

export const ActionSchema = Type.Object(
  {
    type: Type.Union(ACTION_TYPES.map((t) => Type.Literal(t))),
    label: Type.String({ description: 'Button text; shown as received.' }),
    hint: Type.String({ description: 'A sentence saying why, written for a person.' }),
  },
  { $id: 'Action' },
);

export const WorkItemSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    detail: Nullable(Type.String()),
    kind: Type.String({ description: 'Open vocabulary; GET /desk lists a desk\'s kinds.' }),
    status: Type.Union(WORK_STATUSES.map((s) => Type.Literal(s))),
    due_date: Nullable(DateString),
    days_to_due: Nullable(Type.Integer()),
    overdue: Type.Boolean(),
    priority: Type.Integer({ minimum: 1, maximum: 100 }),
    waiting_on: Nullable(Type.String()),
    days_waiting: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    action: Nullable(Type.Ref('Action')),
    permission: Nullable(Type.Union(PERMISSION_CLASSES.map((c) => Type.Literal(c)))),
    allowed: Type.Boolean(),
    has_draft: Type.Boolean(),
  },
  { $id: 'WorkItem' },
);

export const DeskSectionSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    blurb: Type.String(),
    kind: Type.Union(SECTION_KINDS.map((k) => Type.Literal(k))),
    kinds: Type.Array(Type.String()),
    unit: Nullable(Type.String()),
    fields: Type.Array(Type.Object({ name: Type.String(), hint: Type.String() })),
    why: Type.String(),
  },
  { $id: 'DeskSection' },
);

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
  Type.Union([Type.String(), Type.Integer()], { description: 'Integer 1-200, default 50; out-of-range values are brought into range, non-numbers mean the default.' }),
);

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Identifies one intent; a repeat returns the first answer. First 200 characters used.' })),
});
