import type { FastifyRequest } from 'fastify';
import { DeskError } from '../domain/errors.ts';
import { SEND_A_KEY } from '../domain/keys/verify.ts';
import { timesGiven } from './headers.ts';

const TOKEN_READS_ONLY =
  'A write sends its key in the Authorization header, Bearer <key>; ?token= is taken on reads only.';
const ONE_HEADER = 'Send one Authorization header, Bearer <key>; this request has more than one.';

/**
 * The presented key: the Authorization header (scheme word case-insensitive) wins over `?token=`.
 * A header that is present but not `Bearer <key>` is malformed, and answers 401 asking for a key.
 */
export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header !== undefined) {
    // Node keeps the first of two Authorization headers and drops the other unseen: a request
    // that names two keys is malformed, not the first key's.
    if (timesGiven(request.raw.rawHeaders, 'authorization') > 1) throw new DeskError('unauthorized', ONE_HEADER);
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new DeskError('unauthorized', SEND_A_KEY);
    return m[1] ?? null;
  }
  const given = (request.query as Record<string, unknown> | undefined)?.token;
  // Spaces around it, as a key pasted with them into a link has, are no part of it: as in the header.
  const token = typeof given === 'string' ? given.trim() : '';
  if (token) {
    // `?token=` is for reading in a browser. A write carrying it needs no preflight, so any page
    // that learnt a key could write through the owner's browser to a desk only it can reach.
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new DeskError('unauthorized', TOKEN_READS_ONLY);
    return token;
  }
  return null;
}
