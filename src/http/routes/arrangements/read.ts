import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listArrangements } from '../../../domain/arrangements/list.ts';
import { ARRANGEMENT_STATUSES } from '../../../domain/vocab.ts';
import { DateString, errors, Items, KEYED_ERRORS, Nullable, StringEnum, Timestamp } from '../../schemas.ts';

const Arrangement = Type.Object({
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
});

export const arrangementsReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/arrangements',
    {
      schema: {
        tags: ['Arrangements'],
        summary: 'Every arrangement, most in need of attention first (overdue work, open work, next due)',
        response: { 200: Items(Arrangement), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request) => ({ data: await listArrangements(request.ctx) }),
  );
};
