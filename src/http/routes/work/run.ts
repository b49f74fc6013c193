import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const workRunRoutes: FastifyPluginAsyncTypebox = async () => {};
