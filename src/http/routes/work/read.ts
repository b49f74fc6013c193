import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../../domain/errors.ts';
import { parseId } from '../../../domain/input.ts';
import { getWork } from '../../../domain/work/get.ts';
import { listWork, STATUS_MESSAGE } from '../../../domain/work/list.ts';
import { OPEN_STATUSES, MESSAGE_STATUSES } from '../../../domain/vocab.ts';
import {
  Envelope,
  IdParams,
  keyedErrors,
  LimitParam,
  Nullable,
  Ref,
  RefTo,
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

const WorkPage = Type.Object(
  {
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
  },
  { $id: 'WorkPage', description: 'One page of the open queue.' },
);

const Message = Type.Object(
  {
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
  },
  {
    $id: 'Message',
    description: 'A message on a work row: drafted, approved or sent by the desk, or received from outside.',
  },
);

const TimelineEntry = Type.Object(
  {
    kind: Type.String({ description: 'Open vocabulary.' }),
    at: Timestamp,
    text: Type.String({ description: 'Safe to show verbatim.' }),
  },
  { $id: 'TimelineEntry', description: "One sentence of a row's history." },
);

const WorkDetail = Type.Object(
  {
    work: Ref.WorkItem,
    messages: Type.Array(RefTo(Message), { description: 'Oldest first.' }),
    timeline: Type.Array(RefTo(TimelineEntry), { description: "The row's history as sentences, oldest first." }),
  },
  { $id: 'WorkDetail', description: 'One work item with its messages and timeline.' },
);

export const workReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const schema of [WorkPage, Message, TimelineEntry, WorkDetail]) app.addSchema(schema);

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
        operationId: 'listWork',
        summary: 'The open queue, a page at a time',
        description:
          'Open rows (open, in_progress, waiting), at most `limit` a page. Follow `next_cursor` as given; null is ' +
          'the only end-of-list signal, and a client also stops when a page repeats, since an unreadable cursor ' +
          'restarts the list. A page may be empty while later pages exist, when a filter removes everything in ' +
          'the window. `open_total` is the whole open queue, before filters and paging. The order is ' +
          'presentation, not a contract: sort yourself if order matters.',
        querystring: WorkQuery,
        response: {
          200: Envelope(RefTo(WorkPage), 'A page of open work items and the cursor to the next.'),
          ...keyedErrors({
            badRequest: '`status` is not one of open, in_progress, waiting; details.allowed lists them.',
          }),
        },
      },
    },
    async (request) => ({ data: await listWork(request.ctx, request.query) }),
  );

  app.get(
    '/work/:id',
    {
      schema: {
        tags: ['Work'],
        operationId: 'getWork',
        summary: 'One work item with its messages and timeline; finished rows too',
        description:
          'The work item as the queue shows it, its messages (oldest first) and its timeline, the same history ' +
          'as sentences. Rows can vanish between a list and this call: a 404 means skip the id.',
        params: IdParams,
        response: {
          200: Envelope(RefTo(WorkDetail), 'The work item, its messages and its timeline.'),
          ...keyedErrors({ notFound: 'No work item with this id on this desk, or it belongs to another desk.' }),
        },
      },
    },
    async (request) => ({ data: await getWork(request.ctx, parseId(request.params.id, 'work item')) }),
  );
};
