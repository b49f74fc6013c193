import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { arrangementsReadRoutes } from './read.ts';
import { arrangementsNotesRoutes } from './notes.ts';

export const arrangementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(arrangementsReadRoutes);
  await app.register(arrangementsNotesRoutes);
};
