import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A run remembers what it set out to do and the status it found the row in, so that whichever
// run on a row finishes last can put the row back exactly, from any process (P-run-5).

export function runState(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('runs').addColumn('how', 'text').execute();
      await db.schema.alterTable('runs').addColumn('prior_status', 'text').execute();
      await db.schema.createIndex('runs_work_status').on('runs').columns(['work_id', 'status']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('runs_work_status').execute();
      await db.schema.alterTable('runs').dropColumn('prior_status').execute();
      await db.schema.alterTable('runs').dropColumn('how').execute();
    },
  };
}
