import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const deskRoutes: FastifyPluginAsyncTypebox = async () => {};
