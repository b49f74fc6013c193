import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Why the last send through a mailbox never reached its server, and when, until a send gets
// through (P-pass-8): the owner's connections page says so, as it does for the inbox.

export function sendFault(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('connections').addColumn('send_fault', 'text').execute();
      await db.schema.alterTable('connections').addColumn('send_fault_at', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('connections').dropColumn('send_fault_at').execute();
      await db.schema.alterTable('connections').dropColumn('send_fault').execute();
    },
  };
}
