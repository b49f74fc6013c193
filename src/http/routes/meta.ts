import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { me } from '../../domain/desks/summary.ts';
import { Envelope, keyedErrors, publicErrors, RefTo } from '../schemas.ts';

const MeSchema = Type.Object(
  {
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
  },
  { $id: 'KeySummary', description: "The key, its desk and the desk's counts." },
);

export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(MeSchema);
  app.get(
    '/openapi.json',
    {
      config: { public: true },
      schema: {
        tags: ['Meta'],
        operationId: 'getDescription',
        summary: 'This description (OpenAPI 3.1); needs no key',
        description:
          'Generated live, so it shows the API as it is today; info.version is v1. The only route that answers ' +
          'without a key.',
        security: [],
        // Public, but still counted per address: it can answer 429.
        response: {
          200: Type.Object(
            { openapi: Type.String(), info: Type.Object({ version: Type.String() }, { additionalProperties: true }) },
            { additionalProperties: true, description: 'The OpenAPI 3.1 document.' },
          ),
          ...publicErrors(),
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
        operationId: 'checkKey',
        summary: 'Key check: the desk this key belongs to',
        description: 'Answers 200 with the desk id, without counts, when the key is good: the cheapest check.',
        response: {
          200: Envelope(
            Type.Object({ desk: Type.Object({ id: Type.String() }), version: Type.Literal('v1') }),
            "The key's desk.",
          ),
          ...keyedErrors(),
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
        operationId: 'getMe',
        summary: "The key, its desk and the desk's counts",
        description:
          "The key's id, name and leading characters, its desk, and the desk's counts: open equals open_total " +
          'on /work; waiting is the part of it where an answer is owed.',
        response: { 200: Envelope(RefTo(MeSchema), 'The key, its desk and the counts.'), ...keyedErrors() },
      },
    },
    async (request) => ({ data: await me(request.ctx) }),
  );
};
