import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Indexes for the read routes, so that none of them reads every row of a desk:
// /me's waiting and closed-today counts, and /activity and /events newest first.

export function readIndexes(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      // Only rows out with somebody, so /me's waiting count reads those and no others.
      // (desk_id, status) rather than a predicate on status: SQLite, with no statistics,
      // would otherwise prefer work_desk_status and read every open row.
      await db.schema
        .createIndex('work_out_with')
        .on('work')
        .columns(['desk_id', 'status'])
        .where(sql<boolean>`waiting_on is not null`)
        .execute();
      await db.schema.createIndex('work_closed').on('work').columns(['desk_id', 'closed_at']).execute();
      await db.schema.createIndex('activity_recent').on('activity').columns(['desk_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('events_recent').on('events').columns(['desk_id', 'created_at', 'id']).execute();
    },
    async down(db: Kysely<any>) {
      for (const name of ['work_out_with', 'work_closed', 'activity_recent', 'events_recent']) await db.schema.dropIndex(name).ifExists().execute();
    },
  };
}
