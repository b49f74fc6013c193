import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The runs still marked running, oldest first, for each desk: a pass finds those a stopped
// process left behind without reading every run the desk has made.

export function runningRuns(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('runs_running')
        .on('runs')
        .columns(['desk_id', 'started_at'])
        .where(sql<boolean>`status = 'running'`)
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('runs_running').ifExists().execute();
    },
  };
}
