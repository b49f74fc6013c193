import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { askDesk, EMPTY_QUESTION, QUESTION_MAX, QUESTION_NOT_TEXT } from '../../domain/chat/ask.ts';
import { readJsonBodies } from '../body.ts';
import { write, writeValidation } from '../idempotency.ts';
import { Envelope, IdempotencyHeaders, keyedErrors, Nullable, Ref, RefTo, WRITE_ERRORS } from '../schemas.ts';

const ChatBody = Type.Object(
  {
    text: Type.String({
      description: `The question; trimmed, and it must not be empty. At most ${QUESTION_MAX} characters; a longer one is a 400 and nothing is logged.`,
    }),
  },
  { additionalProperties: false, examples: [{ text: 'what is overdue?' }] },
);

const ChatResult = Type.Object(
  {
    question: Type.String({ description: 'The question as taken, trimmed.' }),
    answer: Nullable(Type.String({ description: 'The reply in plain sentences; null when the desk ran out of time.' })),
    timed_out: Type.Boolean({
      description: 'True when no answer came in time; nothing was changed, and the question may be asked again.',
    }),
    desk_added: Type.Array(Ref.DeskSection, { description: 'Blocks added to the desk by this answer, already saved.' }),
  },
  { $id: 'ChatAnswer', description: "The desk's answer; timed_out true is a 200 with answer null." },
);

export const chatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A body that is not JSON gets the route's own message: say something in text.
  readJsonBodies(
    app,
    `${EMPTY_QUESTION} The request was not JSON; send an object such as {"text": "what is overdue?"}.`,
  );

  app.addSchema(ChatResult);
  app.post(
    '/chat',
    {
      ...writeValidation({ '': EMPTY_QUESTION, text: EMPTY_QUESTION, 'text:type': QUESTION_NOT_TEXT }),
      schema: {
        tags: ['Chat'],
        operationId: 'askDesk',
        summary: 'Ask the desk a question; it may add a block to the desk when asked. Allow up to four minutes',
        description:
          'Slow: allow up to four minutes. A client-side time-out is an unknown outcome: retry with the same ' +
          'Idempotency-Key. timed_out: true is a 200 with answer null and nothing changed; the question may be ' +
          'asked again. Blocks in desk_added are already saved, a report rather than a proposal.',
        headers: IdempotencyHeaders,
        body: ChatBody,
        response: {
          200: Envelope(RefTo(ChatResult), "The desk's answer."),
          ...keyedErrors({
            ...WRITE_ERRORS,
            badRequest:
              '`text` is empty, missing or longer than 2,000 characters, a field is unknown, or the request is not JSON.',
          }),
        },
      },
    },
    async (request, reply) => write(request, reply, (ctx) => askDesk(ctx, request.body)),
  );
};
