import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A run records the instant after which it is taken as left behind by a process that stopped,
// as worked out by the process that started it. Before, each process judged every run by its
// own time limit, so a server with a shorter DESK_RUN_TIMEOUT settled as abandoned, and ran
// again, a run that another server with a longer one was still carrying out. Runs begun before
// this have none, and are judged as they were.

export function runDeadline(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('runs').addColumn('stale_at', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('runs').dropColumn('stale_at').execute();
    },
  };
}
