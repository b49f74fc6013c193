import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RunAnswerSchema } from '../../../domain/contract/work.ts';
import { parseId } from '../../../domain/input.ts';
import { runWork } from '../../../domain/work/run.ts';
import { ignoreBodies } from '../../body.ts';
import { write, writeValidation } from '../../idempotency.ts';
import { Envelope, IdempotencyHeaders, IdParams, keyedErrors, RefTo, WRITE_ERRORS } from '../../schemas.ts';

// POST /work/{id}/run: the desk carries the work out. It takes minutes: nothing on this path
// has a time limit of its own (buildApp sets the server's timeouts to none); the run's own
// limit is DESK_RUN_TIMEOUT. Bad news comes back as 200 with ok: false (contract).

export const workRunRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // "No body" (contract): whatever is sent is not read.
  ignoreBodies(app);
  app.addSchema(RunAnswerSchema);
  app.post(
    '/work/:id/run',
    {
      ...writeValidation({}),
      schema: {
        tags: ['Work'],
        operationId: 'runWork',
        summary: 'Have the desk carry the work out; takes minutes (allow at least 15)',
        description:
          "No body. Sends the row's prepared message, or drafts and sends it, or drives the row's playbook in a " +
          'browser: sign in, fill a form, submit, read the result. A run that finished the work closes the row ' +
          '(closed: true, activity_id set); one that could not finish leaves it open and says what it needs or ' +
          "who it waits on. 403 not_permitted unless the owner granted the row's class (the same check as " +
          '`allowed`); details.permission names the class. ok: false (200) with a reason when the row needs a ' +
          'person, is finished, is waiting, or the desk has no way to act, and when the run fails or runs out of ' +
          'time (timed_out: true). A second run while the first is in flight is a second attempt, unless it ' +
          'carries the same Idempotency-Key.',
        params: IdParams,
        headers: IdempotencyHeaders,
        response: {
          200: Envelope(RefTo(RunAnswerSchema), "The desk's report on the run."),
          ...keyedErrors({
            ...WRITE_ERRORS,
            notPermitted: "the desk has not been granted the row's class, or the row is in no class.",
            notFound: 'No work item with this id on this desk, or it belongs to another desk.',
          }),
        },
      },
    },
    async (request, reply) => write(request, reply, (ctx) => runWork(ctx, parseId(request.params.id, 'work item'))),
  );
};
