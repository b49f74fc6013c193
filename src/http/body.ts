import type { FastifyInstance } from 'fastify';
import { DeskError } from '../domain/errors.ts';

export const NOT_JSON = 'The body is not JSON this route can read; send a JSON object.';

/**
 * Reads every request body as JSON, whatever its content type claims (P-5). An empty body on a
 * route whose fields are optional means {} (D28); text that is not JSON is a bad request, worded
 * by the route when it has something more helpful to say.
 */
export function readJsonBodies(app: FastifyInstance, notJson: string = NOT_JSON): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new DeskError('bad_request', notJson), undefined);
    }
  });
}
