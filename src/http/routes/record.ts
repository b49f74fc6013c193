import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const recordRoutes: FastifyPluginAsyncTypebox = async () => {};
