import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function domainsOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('domains')
    .select(['id', 'name', 'registrar', 'status', 'renewal_on', 'amount_cents', 'currency', 'broker_name', 'notes'])
    .where('desk_id', '=', deskId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}
