import { type Static, Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../errors.ts';
import { ACTION_TYPES, PERMISSION_CLASSES, SECTION_KINDS, WORK_STATUSES } from '../vocab.ts';

// The contract's shapes, written once as TypeBox schemas. http/ serves and validates them and
// /openapi.json is generated from them; the domain's results are their Static types, so a
// field cannot be added on one side only. Those with an $id become named components.

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export { Nullable };

/**
 * A reference to a named schema (one with an $id, registered on the app) that keeps its static
 * type: the answer is checked against the shape, and /openapi.json names it instead of copying it.
 */
export const RefTo = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Unsafe<Static<T>>(Type.Ref(schema.$id ?? '', options));

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
    kind: Type.String({ description: "Open vocabulary; GET /desk lists a desk's kinds." }),
    status: Type.Union(WORK_STATUSES.map((s) => Type.Literal(s))),
    due_date: Nullable(DateString),
    days_to_due: Nullable(Type.Integer()),
    overdue: Type.Boolean(),
    priority: Type.Integer({ minimum: 1, maximum: 100 }),
    waiting_on: Nullable(Type.String()),
    days_waiting: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    action: Nullable(RefTo(ActionSchema)),
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

export type Action = Static<typeof ActionSchema>;
export type WorkItem = Static<typeof WorkItemSchema>;
export type DeskSection = Static<typeof DeskSectionSchema>;
