import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { me } from '../../domain/desks/summary.ts';
import { Envelope, errors, KEYED_ERRORS } from '../schemas.ts';

const MeSchema = Type.Object({
  key: Type.Object({ id: Type.Integer(), name: Type.String(), prefix: Type.String() }),
  desk: Type.Object({
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    plan: Type.String(),
    status: Type.String(),
  }),
  work: Type.Object({
    open: Type.Integer({ description: 'Rows in open, in_progress or waiting; equals open_total on /work.' }),
    waiting: Type.Integer({ description: 'Open rows where an answer is owed.' }),
    closed_today: Type.Integer({ description: "Rows closed since the desk's midnight." }),
  }),
});

export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/openapi.json',
    {
      config: { public: true },
      schema: {
        tags: ['Meta'],
        summary: 'This description (OpenAPI 3.1); needs no key',
        security: [],
        // Public, but still counted per address: it can answer 429.
        response: {
          200: Type.Object(
            { openapi: Type.String(), info: Type.Object({ version: Type.String() }, { additionalProperties: true }) },
            { additionalProperties: true },
          ),
          ...errors(429, 500),
        },
      },
    },
    async (request) => request.server.swagger() as unknown as { openapi: string; info: { version: string } },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['Meta'],
        summary: 'Key check: the desk this key belongs to',
        response: {
          200: Envelope(Type.Object({ desk: Type.Object({ id: Type.String() }), version: Type.Literal('v1') })),
          ...errors(...KEYED_ERRORS),
        },
      },
    },
    async (request) => ({ data: { desk: { id: request.ctx.desk.id }, version: 'v1' as const } }),
  );

  app.get(
    '/me',
    {
      schema: {
        tags: ['Meta'],
        summary: "The key, its desk and the desk's counts",
        response: { 200: Envelope(MeSchema), ...errors(...KEYED_ERRORS) },
      },
    },
    async (request) => ({ data: await me(request.ctx) }),
  );
};
