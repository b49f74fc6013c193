import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const arrangementsReadRoutes: FastifyPluginAsyncTypebox = async () => {};
