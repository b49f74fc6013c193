import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseId } from '../../../domain/input.ts';
import { runWork } from '../../../domain/work/run.ts';
import { ignoreBodies } from '../../body.ts';
import { write, writeValidation } from '../../idempotency.ts';
import { Envelope, errors, IdempotencyHeaders, IdParams, KEYED_ERRORS, Nullable } from '../../schemas.ts';

// POST /work/{id}/run: the desk carries the work out. It takes minutes: nothing on this path
// has a time limit of its own (buildApp sets the server's timeouts to none); the run's own
// limit is DESK_RUN_TIMEOUT. Bad news comes back as 200 with ok: false (contract).

const RunResult = Type.Object({
  ok: Type.Boolean({ description: 'False when the desk did not finish: see reason.' }),
  closed: Type.Boolean({ description: 'The run finished the work and closed the row.' }),
  outcome: Type.String({ description: 'Summary sentence, written for a person.' }),
  needs: Nullable(Type.String({ description: 'What is missing before the work can be done.' })),
  waiting: Nullable(Type.String({ description: 'Who is being waited on.' })),
  done: Type.String({ description: 'What was done.' }),
  result: Type.String({ description: 'What the run brought back, e.g. an acknowledgement reference; empty when nothing.' }),
  activity_id: Nullable(Type.Integer({ description: 'The activity report written; null when the run wrote nothing.' })),
  ms: Type.Integer({ minimum: 0, description: 'Actual duration in milliseconds.' }),
  reason: Type.Optional(Type.String({ description: 'Present when ok is false; safe to show.' })),
  timed_out: Type.Optional(Type.Literal(true, { description: 'Present when the run ran out of time (DESK_RUN_TIMEOUT), sends included; the row is as it was, and a message whose send was still unanswered says in its own record whether it went.' })),
});

export const workRunRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // "No body" (contract): whatever is sent is not read.
  ignoreBodies(app);
  app.post(
    '/work/:id/run',
    {
      ...writeValidation({}),
      schema: {
        tags: ['Work'],
        summary: 'Have the desk carry the work out; takes minutes (allow at least 15)',
        description:
          'Sends the row\'s prepared message, or drafts and sends it, or drives the row\'s playbook in a browser. ' +
          '403 not_permitted unless the owner granted the row\'s class. ok: false (200) with a reason when the row needs a person, ' +
          'is finished, is waiting, or the desk has no way to act, and when the run fails or runs out of time (timed_out: true).',
        params: IdParams,
        headers: IdempotencyHeaders,
        response: { 200: Envelope(RunResult), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request, reply) => write(request, reply, () => runWork(request.ctx, parseId(request.params.id, 'work item'))),
  );
};
