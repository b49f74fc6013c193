import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Indexes for the read routes, so that none of them reads every row of a desk:
// /me's waiting and closed-today counts, and /activity and /events newest first.

export function readIndexes(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      // Written exactly as /me's count writes it, so that both planners match the predicate.
      await db.schema
        .createIndex('work_open_waiting')
        .on('work')
        .column('desk_id')
        .where(sql<boolean>`status in ('open', 'in_progress', 'waiting') and waiting_on is not null`)
        .execute();
      await db.schema.createIndex('work_closed').on('work').columns(['desk_id', 'closed_at']).execute();
      await db.schema.createIndex('activity_recent').on('activity').columns(['desk_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('events_recent').on('events').columns(['desk_id', 'created_at', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      for (const name of ['work_open_waiting', 'work_closed', 'activity_recent', 'events_recent']) await db.schema.dropIndex(name).ifExists().execute();
    },
  };
}
