import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Indexes for the read routes, so that none of them reads every row of a desk: /work
// narrowed by arrangement, kind or status; /me's waiting and closed-today counts; and
// /activity and /events newest first.

const OPEN = sql<boolean>`status in ('open', 'in_progress', 'waiting')`;
const QUEUE_ORDER = ['priority desc', 'due_key', 'id'];

export function readIndexes(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      // The queue's order (as work_queue) behind each filter of GET /work.
      await db.schema
        .createIndex('work_queue_arrangement')
        .on('work')
        .columns(['arrangement_id', ...QUEUE_ORDER])
        .where(OPEN)
        .execute();
      await db.schema
        .createIndex('work_queue_kind')
        .on('work')
        .columns(['desk_id', 'kind', ...QUEUE_ORDER])
        .where(OPEN)
        .execute();
      await db.schema
        .createIndex('work_queue_status')
        .on('work')
        .columns(['desk_id', 'status', ...QUEUE_ORDER])
        .where(OPEN)
        .execute();
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
      for (const name of [
        'work_queue_arrangement',
        'work_queue_kind',
        'work_queue_status',
        'work_out_with',
        'work_closed',
        'activity_recent',
        'events_recent',
      ])
        await db.schema.dropIndex(name).ifExists().execute();
    },
  };
}
