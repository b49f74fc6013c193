import type { FastifyRequest } from 'fastify';
import { presentedKey } from './auth.ts';

/** Worded for who was limited: a key, or an address sending no key. */
export function rateLimitMessage(request: FastifyRequest, ttlMs: number): string {
  const wait = `try again in ${Math.ceil(ttlMs / 1000)} s`;
  let keyed = false;
  try {
    keyed = Boolean(presentedKey(request));
  } catch {
    keyed = true;
  }
  return keyed ? `Too many requests for this key; ${wait}.` : `Too many requests from this address without a key; ${wait}.`;
}
