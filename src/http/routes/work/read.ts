import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const workReadRoutes: FastifyPluginAsyncTypebox = async () => {};
