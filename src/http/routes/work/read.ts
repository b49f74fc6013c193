import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../../domain/errors.ts';
import { parseId } from '../../../domain/input.ts';
import { getWork } from '../../../domain/work/get.ts';
import { listWork, STATUS_MESSAGE } from '../../../domain/work/list.ts';
import { OPEN_STATUSES, MESSAGE_STATUSES } from '../../../domain/vocab.ts';
import {
  Envelope,
  errors,
  IdParams,
  KEYED_ERRORS,
  LimitParam,
  Nullable,
  Ref,
  StringEnum,
  Timestamp,
} from '../../schemas.ts';

const WorkQuery = Type.Object({
  limit: LimitParam,
  cursor: Type.Optional(
    Type.String({
      description:
        'A next_cursor from an earlier page, as given. Anything unreadable restarts the list from its first page.',
    }),
  ),
  status: Type.Optional(
    StringEnum(OPEN_STATUSES, { description: 'Only rows in this status; any other value is 400 bad_request.' }),
  ),
  kind: Type.Optional(Type.String({ description: 'A work kind from GET /desk; an unknown kind gives an empty page.' })),
  arrangement: Type.Optional(
    Type.Union([Type.String(), Type.Integer()], {
      description: 'An arrangement id; one that is not on this desk gives an empty page.',
    }),
  ),
});

const WorkPage = Type.Object({
  items: Type.Array(Ref.WorkItem, {
    description: 'At most `limit` open rows: overdue first, then priority desc, due date asc (no date last), id asc.',
  }),
  next_cursor: Nullable(
    Type.String({ description: 'Pass as `cursor` for the next page; null at the end of the list.' }),
  ),
  open_total: Type.Integer({
    minimum: 0,
    description: 'The whole open queue, before filters and paging; equals /me work.open.',
  }),
});

const Message = Type.Object({
  id: Type.Integer(),
  channel: Type.String({ description: '`email` and others this desk uses.' }),
  direction: StringEnum(['outbound', 'inbound'] as const, {
    description:
      "`inbound` is a reply read from the desk's mailbox: status `received`, `actor` the sender's name, `sent_at` its Date, `body` its text (HTML turned into text; never HTML).",
  }),
  subject: Nullable(Type.String()),
  body: Type.String(),
  status: StringEnum(MESSAGE_STATUSES, {
    description:
      '`drafted`, `approved` (signed off but not delivered: no mailbox, a refusal, or a bounce, with the reason recorded), `sent`; `received` on an inbound reply.',
  }),
  actor: Type.String({ description: '`desk` when the desk drafted it; otherwise who wrote it, or `api`.' }),
  to: Nullable(Type.String({ description: 'Recipient address.' })),
  created_at: Timestamp,
  sent_at: Nullable(Timestamp),
  approved_at: Nullable(Timestamp),
  attachments: Type.Optional(
    Type.Array(Type.Object({ name: Type.String(), size: Type.Integer({ minimum: 0, description: 'Bytes.' }) }), {
      description: 'On an inbound message: its attachments by name and size. The files are not kept.',
    }),
  ),
});

const TimelineEntry = Type.Object({
  kind: Type.String(),
  at: Timestamp,
  text: Type.String({ description: 'Safe to show verbatim.' }),
});

const WorkDetail = Type.Object({
  work: Ref.WorkItem,
  messages: Type.Array(Message, { description: 'Oldest first.' }),
  timeline: Type.Array(TimelineEntry, { description: "The row's history as sentences, oldest first." }),
});

export const workReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/work',
    {
      // The one query value that is refused rather than tolerated is `status` (D18).
      schemaErrorFormatter: (errs) =>
        errs.some((e) => (e.instancePath ?? '').startsWith('/status'))
          ? badRequest(STATUS_MESSAGE, { allowed: [...OPEN_STATUSES] })
          : badRequest(
              `The query is not valid: ${errs[0]?.instancePath?.replace(/^\//, '') || 'a value'} ${errs[0]?.message ?? 'is not valid'}.`,
            ),
      schema: {
        tags: ['Work'],
        summary: 'The open queue, a page at a time',
        querystring: WorkQuery,
        response: { 200: Envelope(WorkPage), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request) => ({ data: await listWork(request.ctx, request.query) }),
  );

  app.get(
    '/work/:id',
    {
      schema: {
        tags: ['Work'],
        summary: 'One work item with its messages and timeline; finished rows too',
        params: IdParams,
        response: { 200: Envelope(WorkDetail), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request) => ({ data: await getWork(request.ctx, parseId(request.params.id, 'work item')) }),
  );
};
