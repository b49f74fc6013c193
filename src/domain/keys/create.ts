import type { Kysely } from 'kysely';
import type { Database, ApiKeyRow } from '../../store/schema.ts';
import { addEvent } from '../../store/repositories/events.ts';
import { badRequest } from '../errors.ts';
import { closeDirections, longerThan } from '../text.ts';
import { hashKey, KEY_PREFIX_LENGTH, newKeySecret } from './secret.ts';
import { insertKey, keysOf } from '../../store/repositories/desks.ts';

export interface CreatedKey {
  id: number;
  name: string;
  prefix: string;
  /** The whole key; never stored, never shown again. */
  key: string;
  expires_at: string | null;
}

/** A key's name says which program holds it; the Keys page shows it in a column. */
const KEY_NAME_MAX = 200;

/** Why a key may not have this name, or null when it may. */
export function keyNameFault(name: string): string | null {
  if (!name.trim()) return 'A key needs a name, such as the program that will hold it.';
  if (longerThan(closeDirections(name.trim()), KEY_NAME_MAX))
    return `A key's name is at most ${KEY_NAME_MAX} characters.`;
  return null;
}

export async function createKey(
  db: Kysely<Database>,
  input: { deskId: string; name: string; expiresAt?: string | null; now: string; by?: string },
): Promise<CreatedKey> {
  // Kept with its directions closed, as all text the desk keeps (P-text-3).
  const name = closeDirections(input.name.trim());
  const fault = keyNameFault(name);
  if (fault) throw badRequest(fault);
  if (input.expiresAt && input.expiresAt <= input.now) throw badRequest('A key cannot expire in the past.');
  const key = newKeySecret();
  const row = await insertKey(db, {
    desk_id: input.deskId,
    name,
    prefix: key.slice(0, KEY_PREFIX_LENGTH),
    hash: hashKey(key),
    created_at: input.now,
    expires_at: input.expiresAt ?? null,
    revoked_at: null,
    last_used_at: null,
  });
  await addEvent(db, {
    deskId: input.deskId,
    kind: 'key_created',
    message: `Key "${name}" created`,
    data: { key_id: row.id, key_prefix: row.prefix, by: input.by ?? 'owner' },
    at: input.now,
  });
  return { id: row.id, name: row.name, prefix: row.prefix, key, expires_at: row.expires_at };
}

export type KeySummary = Omit<ApiKeyRow, 'hash'>;

export async function listKeys(db: Kysely<Database>, deskId: string): Promise<KeySummary[]> {
  return keysOf(db, deskId);
}
