import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { completeWork } from '../../../domain/work/complete.ts';
import { draftWork } from '../../../domain/work/draft.ts';
import { DAYS_MESSAGE, snoozeWork } from '../../../domain/work/snooze.ts';
import { parseId } from '../../../domain/input.ts';
import { CompleteAnswerSchema, DraftAnswerSchema, SnoozeAnswerSchema } from '../../../domain/contract/work.ts';
import { ignoreBodies } from '../../body.ts';
import { write, writeValidation } from '../../idempotency.ts';
import { Envelope, errors, IdempotencyHeaders, IdParams, KEYED_ERRORS } from '../../schemas.ts';

// Three of the five writes on a work row: complete, snooze and draft (run lives in run.ts).
// An unknown body field is a 400 naming the fields the route takes (P-writes-1); a field of the
// wrong type is a 400 (D28). Draft takes no body and ignores any that is sent.

const CompleteBody = Type.Object(
  {
    note: Type.Optional(Type.String({ description: "Appended to the row's detail." })),
    actor: Type.Optional(Type.String({ description: 'Recorded as who did it; default `api`.' })),
  },
  { additionalProperties: false },
);

const SnoozeBody = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 365, default: 3, description: 'Whole days, 1-365; enforced, not clamped.' }),
    ),
  },
  { additionalProperties: false },
);

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
        response: { 200: Envelope(CompleteAnswerSchema), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request, reply) =>
      write(request, reply, () => completeWork(request.ctx, parseId(request.params.id, 'work item'), request.body)),
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
        response: { 200: Envelope(SnoozeAnswerSchema), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request, reply) =>
      write(request, reply, () => snoozeWork(request.ctx, parseId(request.params.id, 'work item'), request.body.days)),
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
          summary: "Have the desk write the row's message; declines in the body (200) when it cannot",
          params: IdParams,
          headers: IdempotencyHeaders,
          response: { 200: Envelope(DraftAnswerSchema), ...errors(...KEYED_ERRORS) },
        },
      },
      async (request, reply) =>
        write(request, reply, () => draftWork(request.ctx, parseId(request.params.id, 'work item'))),
    );
  });
};
