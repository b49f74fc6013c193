import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { completeWork } from '../../../domain/work/complete.ts';
import { draftWork } from '../../../domain/work/draft.ts';
import { DAYS_MESSAGE, snoozeWork } from '../../../domain/work/snooze.ts';
import { parseId } from '../../../domain/input.ts';
import { CompleteAnswerSchema, DraftAnswerSchema, SnoozeAnswerSchema } from '../../../domain/contract/work.ts';
import { ignoreBodies } from '../../body.ts';
import { write, writeValidation } from '../../idempotency.ts';
import { Envelope, IdempotencyHeaders, IdParams, keyedErrors, RefTo, WRITE_ERRORS } from '../../schemas.ts';

// Three of the five writes on a work row: complete, snooze and draft (run lives in run.ts).
// An unknown body field is a 400 naming the fields the route takes (P-writes-1); a field of the
// wrong type is a 400 (D28). Draft takes no body and ignores any that is sent.

const CompleteBody = Type.Object(
  {
    note: Type.Optional(
      Type.String({ description: "Appended to the row's detail. Trimmed and cut at 4,000 characters." }),
    ),
    actor: Type.Optional(
      Type.String({
        description:
          'Recorded as who did it; default `api`. Trimmed and cut at 200 characters. Not `owner` or `desk` (any case): those name the owner and the desk itself (400).',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Both fields optional; no body at all is the same as {}.',
    examples: [{ note: 'Called them; they confirmed by phone.', actor: 'billing-bot' }],
  },
);

const SnoozeBody = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 365, default: 3, description: 'Whole days, 1-365; enforced, not clamped.' }),
    ),
  },
  { additionalProperties: false, description: 'Optional; no body at all snoozes 3 days.', examples: [{ days: 7 }] },
);

const NOT_HERE = 'No work item with this id on this desk, or it belongs to another desk.';

export const workWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const schema of [CompleteAnswerSchema, SnoozeAnswerSchema, DraftAnswerSchema]) app.addSchema(schema);

  app.post(
    '/work/:id/complete',
    {
      ...writeValidation({ note: 'note must be a string.', actor: 'actor must be a string.' }),
      schema: {
        tags: ['Work'],
        operationId: 'completeWork',
        summary: 'Do what the row asks: send its prepared message, then move it to waiting or done',
        description:
          'Use when action.type is approve and the prepared message is right, or to record work a person did by ' +
          "hand. Sends the row's newest drafted message through the owner's own mailbox (sent only if a provider " +
          'accepted it, else approved with the reason), then moves the row to waiting if it is waiting on somebody ' +
          'else, else to done, and appends the note to detail. status waiting is a success. delivered: false ' +
          'with failed: true is still a 200: the send was intended and failed, the row stays open with last_error set.',
        params: IdParams,
        headers: IdempotencyHeaders,
        body: CompleteBody,
        response: {
          200: Envelope(RefTo(CompleteAnswerSchema), 'The row after complete, and what happened to its message.'),
          ...keyedErrors({
            ...WRITE_ERRORS,
            badRequest:
              'The body is not a JSON object this route reads: an unknown field, or a field of the wrong type.',
            notFound: NOT_HERE,
          }),
        },
      },
    },
    async (request, reply) =>
      write(request, reply, (ctx) => completeWork(ctx, parseId(request.params.id, 'work item'), request.body)),
  );

  app.post(
    '/work/:id/snooze',
    {
      ...writeValidation({ days: DAYS_MESSAGE }),
      schema: {
        tags: ['Work'],
        operationId: 'snoozeWork',
        summary: 'Push the due date out; priority falls by 5, to no lower than 1',
        description:
          'Moves the due date forward by `days` (default 3), counted from the existing date, or from today when ' +
          'there is none. Priority falls by 5, to no lower than 1. An entry is written to the desk log. Status and action are ' +
          'unchanged and nothing is sent. Works on every row.',
        params: IdParams,
        headers: IdempotencyHeaders,
        body: SnoozeBody,
        response: {
          200: Envelope(RefTo(SnoozeAnswerSchema), 'The row with its new due date and priority.'),
          ...keyedErrors({
            ...WRITE_ERRORS,
            badRequest:
              '`days` is not a whole number from 1 to 365 (enforced, not clamped), a field is unknown, or the body is not JSON.',
            notFound: NOT_HERE,
          }),
        },
      },
    },
    async (request, reply) =>
      write(request, reply, (ctx) => snoozeWork(ctx, parseId(request.params.id, 'work item'), request.body.days), {
        storeOnly: true,
      }),
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
          operationId: 'draftWork',
          summary: "Have the desk write the row's message; declines in the body (200) when it cannot",
          description:
            'No body. Use when action.type is prepare. Guarantees a draft exists: a row that already has a ' +
            'prepared message returns it unchanged, and the desk never re-drafts. When there is nothing true to ' +
            'say, usually because nobody is on the row to write to, the answer is drafted: false with a reason ' +
            '(still 200); retrying does not change it: ask who it goes to.',
          params: IdParams,
          headers: IdempotencyHeaders,
          response: {
            200: Envelope(RefTo(DraftAnswerSchema), "The row's prepared message, or why the desk declined."),
            ...keyedErrors({ ...WRITE_ERRORS, notFound: NOT_HERE }),
          },
        },
      },
      async (request, reply) => write(request, reply, (ctx) => draftWork(ctx, parseId(request.params.id, 'work item'))),
    );
  });
};
