import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The pass reads the rows in reach a page at a time, from the last row of the page before: its
// indexes end with the row's id, so that a page starts with one seek even among thousands of
// rows due on one date (PostgreSQL's index entries do not carry the id otherwise).

const ACTIONABLE = sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0`;
const WAITING = sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0 and waiting_on is not null`;

async function passIndexes(db: Kysely<any>, last: string[]): Promise<void> {
  await db.schema.dropIndex('work_pass_due').ifExists().execute();
  await db.schema.dropIndex('work_pass_waiting').ifExists().execute();
  await db.schema
    .createIndex('work_pass_due')
    .on('work')
    .columns(['desk_id', 'class', 'due_key', ...last])
    .where(ACTIONABLE)
    .execute();
  await db.schema
    .createIndex('work_pass_waiting')
    .on('work')
    .columns(['desk_id', 'waiting_since', ...last])
    .where(WAITING)
    .execute();
}

export function passOrder(_dialect: DialectName): Migration {
  return {
    up: (db: Kysely<any>) => passIndexes(db, ['id']),
    down: (db: Kysely<any>) => passIndexes(db, []),
  };
}
