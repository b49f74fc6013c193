import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Without statistics (PostgreSQL before its first ANALYZE, or with autovacuum off; SQLite
// always), a planner picks among the indexes that match a query's equalities by their shape.
// `work_desk_status (desk_id, status)` matched the status walks of the queue as well as
// `work_queue_status` does, and on a 20,000-row desk PostgreSQL took it and sorted every row of
// the status for each step of a walk. Everything it served, the queue's own partial indexes
// and `work_closed` serve as well, so it goes. The one count it served by reading every open
// row, the rows holding an unread reply, gets an index of just those rows.

const UNREAD = sql<boolean>`replied_at is not null`;

export function plainPlans(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('work_desk_status').ifExists().execute();
      // (desk_id, status) rather than a predicate on status, as work_out_with (migration 004):
      // SQLite, with no statistics, would otherwise read the open rows down work_queue_status.
      await db.schema
        .createIndex('work_unread_replies')
        .on('work')
        .columns(['desk_id', 'status'])
        .where(UNREAD)
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('work_unread_replies').ifExists().execute();
      await db.schema.createIndex('work_desk_status').on('work').columns(['desk_id', 'status']).execute();
    },
  };
}
