import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The whole queue is read as the merge of its three status walks (work_queue_status), so the
// index of the whole queue in that same order is dropped: every write that moves a row in the
// queue (a snooze moves its priority and due date) rewrote two of its pages, on a large desk
// pages that no other write of the commit shared.

const OPEN = sql<boolean>`status in ('open', 'in_progress', 'waiting')`;

export function queueByStatus(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('work_queue').ifExists().execute();
    },
    async down(db: Kysely<any>) {
      await db.schema
        .createIndex('work_queue')
        .on('work')
        .columns(['desk_id', 'priority desc', 'due_key', 'id'])
        .where(OPEN)
        .execute();
    },
  };
}
