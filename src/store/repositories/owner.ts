import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// Sign-in links and sessions of the owner's screen, by token hash.

export async function insertLink(
  db: Kysely<Database>,
  v: { hash: string; deskId: string; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('owner_links')
    .values({ token_hash: v.hash, desk_id: v.deskId, created_at: v.now, expires_at: v.expiresAt, used_at: null })
    .execute();
}

export async function findLink(db: Kysely<Database>, hash: string) {
  return db.selectFrom('owner_links').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** Marks the link used if nobody has; true only for the one call that did. */
export async function useLink(db: Kysely<Database>, hash: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('owner_links')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertSession(
  db: Kysely<Database>,
  v: { hash: string; deskId: string; now: string },
): Promise<void> {
  await db
    .insertInto('owner_sessions')
    .values({ token_hash: v.hash, desk_id: v.deskId, created_at: v.now, last_seen_at: v.now })
    .execute();
}

export async function findSession(db: Kysely<Database>, hash: string) {
  return db.selectFrom('owner_sessions').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

export async function touchSession(db: Kysely<Database>, hash: string, now: string): Promise<void> {
  await db.updateTable('owner_sessions').set({ last_seen_at: now }).where('token_hash', '=', hash).execute();
}

export async function deleteSession(db: Kysely<Database>, hash: string): Promise<void> {
  await db.deleteFrom('owner_sessions').where('token_hash', '=', hash).execute();
}

export async function deleteDeskSessions(db: Kysely<Database>, deskId: string): Promise<number> {
  const r = await db.deleteFrom('owner_sessions').where('desk_id', '=', deskId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Ends every sign-in link of the desk that nobody has used and that still works, at `now` (its
 * end, earlier than a link's own, says it was cancelled); how many there were.
 */
export async function cancelUnusedDeskLinks(db: Kysely<Database>, deskId: string, now: string): Promise<number> {
  const r = await db
    .updateTable('owner_links')
    .set({ expires_at: now })
    .where('desk_id', '=', deskId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
