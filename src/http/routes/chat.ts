import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { askDesk, EMPTY_QUESTION } from '../../domain/chat/ask.ts';
import { readJsonBodies } from '../body.ts';
import { write, writeValidation } from '../idempotency.ts';
import { Envelope, errors, IdempotencyHeaders, KEYED_ERRORS, Nullable, Ref } from '../schemas.ts';

const ChatBody = Type.Object(
  {
    text: Type.String({ description: 'The question; trimmed, and it must not be empty.' }),
  },
  { additionalProperties: false },
);

const ChatResult = Type.Object({
  question: Type.String({ description: 'The question as taken, trimmed.' }),
  answer: Nullable(Type.String({ description: 'The reply in plain sentences; null when the desk ran out of time.' })),
  timed_out: Type.Boolean({
    description: 'True when no answer came in time; nothing was changed, and the question may be asked again.',
  }),
  desk_added: Type.Array(Ref.DeskSection, { description: 'Blocks added to the desk by this answer, already saved.' }),
});

export const chatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A body that is not JSON gets the route's own message: say something in text.
  readJsonBodies(
    app,
    `${EMPTY_QUESTION} The request was not JSON; send an object such as {"text": "what is overdue?"}.`,
  );

  app.post(
    '/chat',
    {
      ...writeValidation({ '': EMPTY_QUESTION, text: EMPTY_QUESTION }),
      schema: {
        tags: ['Chat'],
        summary: 'Ask the desk a question; it may add a block to the desk when asked. Allow up to four minutes',
        headers: IdempotencyHeaders,
        body: ChatBody,
        response: { 200: Envelope(ChatResult), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request, reply) => write(request, reply, () => askDesk(request.ctx, request.body)),
  );
};
