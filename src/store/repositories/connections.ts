import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** The desk's first connected mail connection, by id. */
export async function connectedMailbox(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('connections')
    .select(['provider', 'config'])
    .where('desk_id', '=', deskId)
    .where('category', '=', 'mail')
    .where('status', '=', 'connected')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
}

export async function connectionsOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('connections')
    .select(['id', 'provider', 'name', 'category', 'auth_type', 'status'])
    .where('desk_id', '=', deskId)
    .execute();
}

/** The desk's mail connections with their settings, for reading the mailbox. */
export async function mailConnections(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('connections')
    .select(['id', 'name', 'status', 'config'])
    .where('desk_id', '=', deskId)
    .where('category', '=', 'mail')
    .orderBy('id', 'asc')
    .execute();
}
