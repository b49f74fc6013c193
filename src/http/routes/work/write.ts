import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { completeWork } from '../../../domain/work/complete.ts';
import { draftWork } from '../../../domain/work/draft.ts';
import { DAYS_MESSAGE, snoozeWork } from '../../../domain/work/snooze.ts';
import { parseId } from '../../../domain/input.ts';
import { WORK_STATUSES } from '../../../domain/vocab.ts';
import { ignoreBodies } from '../../body.ts';
import { write, writeValidation } from '../../idempotency.ts';
import { DateString, Envelope, errors, IdempotencyHeaders, IdParams, KEYED_ERRORS, Nullable } from '../../schemas.ts';

// Three of the five writes on a work row: complete, snooze and draft (run lives in run.ts).
// An unknown body field is a 400 naming the fields the route takes (P-writes-1); a field of the
// wrong type is a 400 (D28). Draft takes no body and ignores any that is sent.

const Status = Type.Union(WORK_STATUSES.map((s) => Type.Literal(s)));

const CompleteBody = Type.Object({
  note: Type.Optional(Type.String({ description: 'Appended to the row\'s detail.' })),
  actor: Type.Optional(Type.String({ description: 'Recorded as who did it; default `api`.' })),
}, { additionalProperties: false });

const CompleteResult = Type.Object({
  id: Type.Integer(),
  status: Status,
  waiting_on: Nullable(Type.String()),
  failed: Type.Boolean({ description: 'The desk tried to send and could not; the row stays open with last_error set.' }),
  delivered: Type.Boolean({ description: 'A provider accepted the message. False with failed true means the send was intended and failed.' }),
  delivery_note: Type.String(),
});

const SnoozeBody = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 3, description: 'Whole days, 1-365; enforced, not clamped.' })),
}, { additionalProperties: false });

const SnoozeResult = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  kind: Type.String(),
  status: Status,
  due_date: Nullable(DateString),
  priority: Type.Integer({ minimum: 1, maximum: 100 }),
});

const DraftResult = Type.Union([
  Type.Object({
    drafted: Type.Literal(true),
    channel: Type.String(),
    subject: Type.String(),
    body: Type.String(),
    to: Type.String({ description: 'Recipient address.' }),
  }),
  Type.Object({
    drafted: Type.Literal(false),
    reason: Type.String({ description: 'Written for a person; retrying does not change it.' }),
  }),
]);

export const workWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/work/:id/complete',
    {
      ...writeValidation({ note: 'note must be a string.', actor: 'actor must be a string.' }),
      schema: {
        tags: ['Work'],
        summary: 'Do what the row asks: send its prepared message, then move it to waiting or done',
        params: IdParams,
        headers: IdempotencyHeaders,
        body: CompleteBody,
        response: { 200: Envelope(CompleteResult), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request, reply) => write(request, reply, () => completeWork(request.ctx, parseId(request.params.id, 'work item'), request.body)),
  );

  app.post(
    '/work/:id/snooze',
    {
      ...writeValidation({ days: DAYS_MESSAGE }),
      schema: {
        tags: ['Work'],
        summary: 'Push the due date out; priority falls by 5',
        params: IdParams,
        headers: IdempotencyHeaders,
        body: SnoozeBody,
        response: { 200: Envelope(SnoozeResult), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request, reply) => write(request, reply, () => snoozeWork(request.ctx, parseId(request.params.id, 'work item'), request.body.days)),
  );

  // Draft takes no body (contract): whatever is sent is not read.
  await app.register(async (plain) => {
    ignoreBodies(plain);
    const noBody = plain.withTypeProvider<TypeBoxTypeProvider>();
    noBody.post(
      '/work/:id/draft',
      {
        ...writeValidation({}),
        schema: {
          tags: ['Work'],
          summary: 'Have the desk write the row\'s message; declines in the body (200) when it cannot',
          params: IdParams,
          headers: IdempotencyHeaders,
          response: { 200: Envelope(DraftResult), ...errors(...KEYED_ERRORS) },
        },
      },
      async (request, reply) => write(request, reply, () => draftWork(request.ctx, parseId(request.params.id, 'work item'))),
    );
  });
};
