import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// One row of a desk's records by id, scoped to the desk.

export { connectionConfig } from './connections.ts';

export async function findUnit(db: Kysely<Database>, deskId: string, id: number) {
  return db.selectFrom('units').selectAll().where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst();
}

export async function findArrangement(db: Kysely<Database>, deskId: string, id: number) {
  return db
    .selectFrom('arrangements')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findPlaybook(db: Kysely<Database>, deskId: string, id: number) {
  return db.selectFrom('playbooks').selectAll().where('desk_id', '=', deskId).where('id', '=', id).executeTakeFirst();
}

/** Contact details of some of the desk's arrangements. */
export async function arrangementContacts(db: Kysely<Database>, deskId: string, ids: number[]) {
  return db
    .selectFrom('arrangements')
    .select(['id', 'contact_name', 'contact_email'])
    .where('desk_id', '=', deskId)
    .where('id', 'in', ids)
    .execute();
}
