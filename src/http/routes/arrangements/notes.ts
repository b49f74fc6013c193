import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addArrangementNote, EMPTY_NOTE, NOTE_NOT_TEXT } from '../../../domain/arrangements/note.ts';
import { readJsonBodies } from '../../body.ts';
import { parseId } from '../../../domain/input.ts';
import { write, writeValidation } from '../../idempotency.ts';
import { Envelope, IdempotencyHeaders, IdParams, keyedErrors, RefTo, Timestamp, WRITE_ERRORS } from '../../schemas.ts';

const NoteBody = Type.Object(
  {
    body: Type.String({ description: 'Trimmed and cut at 4,000 characters; must not be empty.' }),
    actor: Type.Optional(
      Type.String({
        description:
          'Who wrote it; default `api`. Trimmed and cut at 200 characters. Not `owner` or `desk` (any case): those name the owner and the desk itself (400).',
      }),
    ),
    channel: Type.Optional(
      Type.Unknown({ description: '`call` is kept; any other value (of any type) is stored as `note`.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ body: 'Landlord agreed to fix the boiler by Friday.', channel: 'call' }],
  },
);

const NoteResult = Type.Object(
  {
    id: Type.Integer({ description: 'The activity entry the note became.' }),
    arrangement_id: Type.Integer(),
    channel: Type.Union([Type.Literal('note'), Type.Literal('call')]),
    body: Type.String(),
    actor: Type.String(),
    created_at: Timestamp,
  },
  { $id: 'Note', description: 'The note as stored, an activity entry of the arrangement.' },
);

export const arrangementsNotesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Here a body that is not JSON gets the route's own message: say something in body.
  readJsonBodies(app, `${EMPTY_NOTE} The request was not JSON; send an object such as {"body": "..."}.`);

  app.addSchema(NoteResult);
  app.post(
    '/arrangements/:id/notes',
    {
      ...writeValidation({
        '': EMPTY_NOTE,
        body: EMPTY_NOTE,
        'body:type': NOTE_NOT_TEXT,
        actor: 'actor must be a string.',
      }),
      schema: {
        tags: ['Arrangements'],
        operationId: 'addArrangementNote',
        summary: 'Add a note to an arrangement; the desk reads notes when it works the arrangement',
        description:
          '`body` is trimmed and cut at 4,000 characters. Only the literal `call` is kept as channel; any other ' +
          'value is stored as `note`, without an error. The desk reads notes when it works the arrangement.',
        params: IdParams,
        headers: IdempotencyHeaders,
        body: NoteBody,
        response: {
          200: Envelope(RefTo(NoteResult), 'The note as stored.'),
          ...keyedErrors({
            ...WRITE_ERRORS,
            badRequest:
              '`body` is empty, whitespace only or missing, a field is unknown or of the wrong type (`actor` not a string), or the request is not JSON.',
            notFound: 'No arrangement with this id on this desk; no note is written.',
          }),
        },
      },
    },
    async (request, reply) =>
      write(request, reply, (ctx) => addArrangementNote(ctx, parseId(request.params.id, 'arrangement'), request.body), {
        storeOnly: true,
      }),
  );
};
