import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workReadRoutes } from './read.ts';
import { workWriteRoutes } from './write.ts';
import { workRunRoutes } from './run.ts';

export const workRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(workReadRoutes);
  await app.register(workWriteRoutes);
  await app.register(workRunRoutes);
};
