import type { Kysely } from 'kysely';
import type { Database, WorkRow } from '../schema.ts';

/** A desk's done or closed rows, most recently finished first; rows imported with no day last. */
export async function findFinishedWork(
  db: Kysely<Database>,
  deskId: string,
  status: 'done' | 'closed',
  limit: number,
): Promise<WorkRow[]> {
  return db
    .selectFrom('work')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('status', '=', status)
    .orderBy('closed_at', (o) => o.desc().nullsLast())
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
