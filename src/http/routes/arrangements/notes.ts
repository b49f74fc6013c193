import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addArrangementNote, EMPTY_NOTE } from '../../../domain/arrangements/note.ts';
import { readJsonBodies } from '../../body.ts';
import { parseId } from '../../../domain/input.ts';
import { write, writeValidation } from '../../idempotency.ts';
import { Envelope, errors, IdempotencyHeaders, IdParams, KEYED_ERRORS, Timestamp } from '../../schemas.ts';

const NoteBody = Type.Object(
  {
    body: Type.String({ description: 'Trimmed and cut at 4,000 characters; must not be empty.' }),
    actor: Type.Optional(Type.String({ description: 'Who wrote it; default `api`.' })),
    channel: Type.Optional(
      Type.Unknown({ description: '`call` is kept; any other value (of any type) is stored as `note`.' }),
    ),
  },
  { additionalProperties: false },
);

const NoteResult = Type.Object({
  id: Type.Integer({ description: 'The activity entry the note became.' }),
  arrangement_id: Type.Integer(),
  channel: Type.Union([Type.Literal('note'), Type.Literal('call')]),
  body: Type.String(),
  actor: Type.String(),
  created_at: Timestamp,
});

export const arrangementsNotesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Here a body that is not JSON gets the route's own message: say something in body.
  readJsonBodies(app, `${EMPTY_NOTE} The request was not JSON; send an object such as {"body": "..."}.`);

  app.post(
    '/arrangements/:id/notes',
    {
      ...writeValidation({ '': EMPTY_NOTE, body: EMPTY_NOTE, actor: 'actor must be a string.' }),
      schema: {
        tags: ['Arrangements'],
        summary: 'Add a note to an arrangement; the desk reads notes when it works the arrangement',
        params: IdParams,
        headers: IdempotencyHeaders,
        body: NoteBody,
        response: { 200: Envelope(NoteResult), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request, reply) =>
      write(request, reply, () =>
        addArrangementNote(request.ctx, parseId(request.params.id, 'arrangement'), request.body),
      ),
  );
};
