import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listArrangements } from '../../../domain/arrangements/list.ts';
import { ARRANGEMENT_STATUSES } from '../../../domain/vocab.ts';
import { DateString, Items, keyedErrors, Nullable, RefTo, StringEnum, Timestamp } from '../../schemas.ts';

const Arrangement = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    counterparty: Nullable(Type.String()),
    kind: Type.String({ description: 'Open vocabulary, such as lease or supply.' }),
    status: StringEnum(ARRANGEMENT_STATUSES),
    starts_on: Nullable(DateString),
    ends_on: Nullable(DateString),
    renews_on: Nullable(DateString),
    amount_cents: Nullable(Type.Integer({ description: 'Minor units; null together with currency.' })),
    currency: Nullable(Type.String()),
    contact_name: Nullable(Type.String()),
    contact_email: Nullable(Type.String()),
    open_work: Type.Integer({ minimum: 0, description: 'Its rows in open, in_progress or waiting.' }),
    overdue_work: Type.Integer({ minimum: 0, description: 'Of those, the ones past their due date.' }),
    next_due: Nullable(DateString),
    notes_count: Type.Integer({ minimum: 0 }),
    last_note_at: Nullable(Timestamp),
  },
  {
    $id: 'Arrangement',
    description: 'A long-running relationship (a lease, a supply contract), with the state of its work and notes.',
  },
);

export const arrangementsReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(Arrangement);
  app.get(
    '/arrangements',
    {
      schema: {
        tags: ['Arrangements'],
        operationId: 'listArrangements',
        summary: 'Every arrangement, most in need of attention first (overdue work, open work, next due)',
        description:
          'The long-running relationships of the desk, all of them (no paging). Narrow the queue to one with ' +
          '`GET /work?arrangement={id}`.',
        response: { 200: Items(RefTo(Arrangement), 'Every arrangement on this desk.'), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await listArrangements(request.ctx) }),
  );
};
