import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Two indexes that are only ever searched for one value of their first column leave out the
// rows where it is NULL: the arrangement walk (GET /work?arrangement_id=) never looks for rows
// with no arrangement, and the pass never for rows with no class. A write that moves such a
// row in the queue (a snooze, say) then rewrites two index pages fewer, and the indexes hold
// only rows they can return. Both planners see that `x = ?` implies `x is not null`.

const OPEN = sql<boolean>`status in ('open', 'in_progress', 'waiting')`;
const ACTIONABLE = `status in ('open', 'waiting') and last_error is null and needs_person = 0`;

async function rebuild(db: Kysely<any>, sparse: boolean): Promise<void> {
  await db.schema.dropIndex('work_queue_arrangement').ifExists().execute();
  await db.schema
    .createIndex('work_queue_arrangement')
    .on('work')
    .columns(['arrangement_id', 'priority desc', 'due_key', 'id'])
    .where(sparse ? sql<boolean>`${OPEN} and arrangement_id is not null` : OPEN)
    .execute();
  await db.schema.dropIndex('work_pass_due').ifExists().execute();
  await db.schema
    .createIndex('work_pass_due')
    .on('work')
    .columns(['desk_id', 'class', 'due_key', 'id'])
    .where(sql.raw<boolean>(sparse ? `${ACTIONABLE} and class is not null` : ACTIONABLE))
    .execute();
}

export function sparseIndexes(_dialect: DialectName): Migration {
  return {
    up: (db: Kysely<any>) => rebuild(db, true),
    down: (db: Kysely<any>) => rebuild(db, false),
  };
}
