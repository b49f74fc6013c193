import type { FastifyPluginAsync } from 'fastify';

// `GET /`: where things are. A later screen at `/` replaces this route; it lives alone so that
// the swap touches one file.

export const ROOT_INDEX = {
  name: 'Desk',
  api: '/api/v1',
  openapi: '/api/v1/openapi.json',
  help: 'Programs use the API at /api/v1 with a bearer key; its description needs no key.',
};

export const rootRoutes: FastifyPluginAsync = async (app) => {
  app.get('/', { schema: { hide: true } }, async () => ROOT_INDEX);
};
