import type { FastifyRequest } from 'fastify';
import { DeskError } from '../domain/errors.ts';
import { SEND_A_KEY, SEND_A_KEY_IN_HEADER } from '../domain/keys/verify.ts';
import { timesGiven } from './headers.ts';

const TOKEN_READS_ONLY =
  'A write sends its key in the Authorization header, Bearer <key>; ?token= is taken on reads only.';
const ONE_HEADER = 'Send one Authorization header, Bearer <key>; this request has more than one.';

/** What a request offers as its key, before any is looked up. */
export type Offered =
  /** Nothing at all. */
  | { kind: 'none' }
  /** A scheme other than Bearer: no bearer key came (RFC 6750), though something was offered as one. */
  | { kind: 'other' }
  /** Something meant as a bearer key, in a shape or a place that cannot be taken. */
  | { kind: 'malformed'; message: string }
  | { kind: 'key'; key: string };

/** What to send, said for the request's method: a write takes its key in the header only. */
export function askForKey(method: string): string {
  return method === 'GET' || method === 'HEAD' ? SEND_A_KEY : SEND_A_KEY_IN_HEADER;
}

/** The Authorization header (scheme word case-insensitive) wins over `?token=`. */
export function offeredKey(request: FastifyRequest): Offered {
  const header = request.headers.authorization;
  if (header !== undefined) {
    // Node keeps the first of two Authorization headers and drops the other unseen: a request
    // that names two keys is malformed, not the first key's.
    if (timesGiven(request.raw.rawHeaders, 'authorization') > 1) return { kind: 'malformed', message: ONE_HEADER };
    const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
    if (m) return { kind: 'key', key: m[1]! };
    return /^\s*bearer(\s|$)/i.test(header)
      ? { kind: 'malformed', message: askForKey(request.method) }
      : { kind: 'other' };
  }
  const given = (request.query as Record<string, unknown> | undefined)?.token;
  // Spaces around it, as a key pasted with them into a link has, are no part of it: as in the header.
  const token = typeof given === 'string' ? given.trim() : '';
  if (!token) return { kind: 'none' };
  // `?token=` is for reading in a browser. A write carrying it needs no preflight, so any page
  // that learnt a key could write through the owner's browser to a desk only it can reach.
  if (request.method !== 'GET' && request.method !== 'HEAD') return { kind: 'malformed', message: TOKEN_READS_ONLY };
  return { kind: 'key', key: token };
}

/**
 * The presented key, or null for none; a malformed one answers 401 saying what to send.
 * `keyless` is true only when nothing at all was offered: another scheme's header counts as a
 * refused key, against its address's smaller limit (P-limits-2).
 */
export function presentedKey(request: FastifyRequest): { key: string | null; keyless: boolean } {
  const offered = offeredKey(request);
  if (offered.kind === 'malformed') throw new DeskError('unauthorized', offered.message);
  return { key: offered.kind === 'key' ? offered.key : null, keyless: offered.kind === 'none' };
}
