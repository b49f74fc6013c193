import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A message claimed for sending records the instant after which its send is taken as left
// behind by a process that stopped, as worked out by the process that claimed it (its mail
// server's time to answer, and a minute). Before, each process judged every claim by its own
// DESK_MAIL_TIMEOUT, so a server with a shorter one recorded as not known a send another server
// was still waiting on. Claims made before this have none, and are judged as they were.

export function sendDeadline(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('activity').addColumn('send_stale_at', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('activity').dropColumn('send_stale_at').execute();
    },
  };
}
