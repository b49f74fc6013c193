import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const chatRoutes: FastifyPluginAsyncTypebox = async () => {};
