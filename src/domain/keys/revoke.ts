import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { addEvent } from '../../store/repositories/events.ts';
import { DeskError } from '../errors.ts';
import { findDesk, findKey, markKeyRevoked } from '../../store/repositories/desks.ts';

/** The one answer for a key that is not there, whichever door asked. */
export const noSuchKey = (id: number | bigint) => new DeskError('not_found', `No key ${id}.`);

export async function revokeKey(
  db: Kysely<Database>,
  input: { keyId: number; now: string; by?: string },
): Promise<{ id: number; prefix: string; already: boolean }> {
  const key = await findKey(db, input.keyId);
  if (!key) throw noSuchKey(input.keyId);
  // Two revokes at once (two tabs, the screen and the CLI) both read the key live: only the one
  // whose write finds it so revokes it and says so in the log.
  if (key.revoked_at || !(await markKeyRevoked(db, key.id, input.now)))
    return { id: key.id, prefix: key.prefix, already: true };
  if (await findDesk(db, key.desk_id)) {
    await addEvent(db, {
      deskId: key.desk_id,
      kind: 'key_revoked',
      message: `Key "${key.name}" revoked`,
      data: { key_id: key.id, key_prefix: key.prefix, by: input.by ?? 'owner' },
      at: input.now,
    });
  }
  return { id: key.id, prefix: key.prefix, already: false };
}
