import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listActivity } from '../../domain/record/activity.ts';
import { listEvents } from '../../domain/record/events.ts';
import { errors, Items, KEYED_ERRORS, LimitParam, Nullable, Timestamp } from '../schemas.ts';

// The Record tag: what was written or sent, and the desk's own log. Newest first; `limit`
// is the only parameter (no cursor, no total).

const LimitQuery = Type.Object({ limit: LimitParam });

const ActivityEntry = Type.Object({
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
});

const EventEntry = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: "api_write for a write through the API; other kinds are the desk's own." }),
  message: Type.String(),
  data: Type.Object(
    {},
    { additionalProperties: true, description: 'Details of the entry; for api_write: key_prefix, key_id and status.' },
  ),
  created_at: Timestamp,
});

export const recordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/activity',
    {
      schema: {
        tags: ['Record'],
        summary: 'Everything written or sent: messages, notes, run reports; newest first',
        querystring: LimitQuery,
        response: { 200: Items(ActivityEntry), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request) => ({ data: await listActivity(request.ctx, request.query) }),
  );

  app.get(
    '/events',
    {
      schema: {
        tags: ['Record'],
        summary: "The desk's own log; newest first",
        querystring: LimitQuery,
        response: { 200: Items(EventEntry), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request) => ({ data: await listEvents(request.ctx, request.query) }),
  );
};
