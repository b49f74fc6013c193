import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listActivity } from '../../domain/record/activity.ts';
import { listEvents } from '../../domain/record/events.ts';
import { Items, keyedErrors, LimitParam, Nullable, RefTo, Timestamp } from '../schemas.ts';

// The Record tag: what was written or sent, and the desk's own log. Newest first; `limit`
// is the only parameter (no cursor, no total).

const LimitQuery = Type.Object({ limit: LimitParam });

const ActivityEntry = Type.Object(
  {
    id: Type.Integer(),
    obligation_id: Nullable(Type.Integer({ description: 'The work row, if any.' })),
    arrangement_id: Nullable(Type.Integer({ description: 'The arrangement, for a note.' })),
    outcome_id: Nullable(Type.Integer()),
    channel: Type.String(),
    direction: Type.String({ description: 'outbound or inbound.' }),
    subject: Nullable(Type.String()),
    body: Type.String(),
    status: Type.String({ description: 'drafted, approved or sent for a message; recorded for a note.' }),
    actor: Type.String(),
    created_at: Timestamp,
    sent_at: Nullable(Timestamp),
    approved_at: Nullable(Timestamp),
  },
  { $id: 'ActivityEntry', description: 'Something written or sent: a message, a note, or the report of a run.' },
);

const EventEntry = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.String({ description: "api_write for a write through the API; other kinds are the desk's own." }),
    message: Type.String(),
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'Details of the entry; for api_write: key_prefix, key_id and status.',
      },
    ),
    created_at: Timestamp,
  },
  { $id: 'Event', description: "An entry of the desk's own log." },
);

export const recordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const schema of [ActivityEntry, EventEntry]) app.addSchema(schema);

  app.get(
    '/activity',
    {
      schema: {
        tags: ['Record'],
        operationId: 'listActivity',
        summary: 'Everything written or sent: messages, notes, run reports; newest first',
        description:
          'The newest `limit` entries, newest first (the opposite of /work). No cursor and no total: raising ' +
          '`limit` is the only way to see more, and at 200 there is no further page.',
        querystring: LimitQuery,
        response: { 200: Items(RefTo(ActivityEntry), 'The newest activity entries.'), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await listActivity(request.ctx, request.query) }),
  );

  app.get(
    '/events',
    {
      schema: {
        tags: ['Record'],
        operationId: 'listEvents',
        summary: "The desk's own log; newest first",
        description:
          'What the desk did and when, writes through the API included: those have kind api_write, the method ' +
          "and path as message, and the key's leading characters in data. Paged as /activity: `limit` only, " +
          'newest first.',
        querystring: LimitQuery,
        response: { 200: Items(RefTo(EventEntry), 'The newest log entries.'), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await listEvents(request.ctx, request.query) }),
  );
};
