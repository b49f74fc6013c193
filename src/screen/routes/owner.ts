import type { FastifyRequest } from 'fastify';
import type { DeskContext } from '../../domain/context.ts';
import { DeskError } from '../../domain/errors.ts';

/** The signed-in owner's desk; without a session the error handler sends the browser to sign in. */
export function signedIn(request: FastifyRequest): DeskContext {
  if (!request.owner) throw new DeskError('unauthorized', 'Sign in first.');
  return request.owner;
}
