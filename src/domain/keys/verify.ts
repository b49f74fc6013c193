import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database, DeskRow } from '../../store/schema.ts';
import { findKeyByHash, touchKey } from '../../store/repositories/desks.ts';
import { DeskError, deskGone } from '../errors.ts';
import { hashKey, looksLikeKey } from './secret.ts';

/** How fine "last used" is kept. */
export const LAST_USED_GRAIN_MS = 60_000;

export const SEND_A_KEY = 'Send a key: Authorization: Bearer <key>, or ?token=<key> for a quick browser check.';
/** A write takes its key in the header alone (P-keys-4). */
export const SEND_A_KEY_IN_HEADER = 'Send a key: Authorization: Bearer <key>. A write takes it in that header only.';
export const KEY_NOT_VALID =
  "The key is not valid, or it was revoked or has expired. Ask the desk's owner for a key: they make one with `desk keys create` or on the screen's Keys page.";

/**
 * Resolves a presented key to its desk, or says why not (401 unauthorized, 403 no_desk). `seen`
 * is the store's version the request read as it arrived, on PostgreSQL (Store.fresh).
 */
export async function verifyKey(
  db: Kysely<Database>,
  secret: string | null,
  now: string,
  seen?: string,
  /** What to say when no key came. */
  askForKey = SEND_A_KEY,
): Promise<{ key: ApiKeyRow; desk: DeskRow }> {
  if (!secret) throw new DeskError('unauthorized', askForKey);
  if (!looksLikeKey(secret)) throw new DeskError('unauthorized', KEY_NOT_VALID);
  const found = await findKeyByHash(db, hashKey(secret), seen);
  const key = found?.key;
  if (!key || key.revoked_at || (key.expires_at !== null && key.expires_at <= now))
    throw new DeskError('unauthorized', KEY_NOT_VALID);
  const desk = found.desk;
  if (!desk) throw deskGone();
  return { key, desk };
}

/**
 * Records that a key was used for a request the desk answered (a refused request writes
 * nothing). "Last used" is for a person deciding whether a key is still needed: to the minute
 * is enough, so a busy program does not write on every request. Null when there is nothing to
 * write, so the caller need not wait.
 */
export function noteKeyUse(
  db: Kysely<Database>,
  key: Pick<ApiKeyRow, 'id' | 'last_used_at'>,
  now: string,
): Promise<void> | null {
  const since = new Date(Date.parse(now) - LAST_USED_GRAIN_MS).toISOString();
  if (key.last_used_at && key.last_used_at >= since) return null;
  return touchKey(db, key.id, now, since);
}
