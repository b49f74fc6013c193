import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A received message keeps the address it came from, so that the desk's answer thanks the
// contact for their reply only when it came from the contact's own address: a colleague may
// answer from another, and display names vary ("Samuel Oven" for Sam Oven). Messages read
// before this have none, and are taken as the contact's, as they were.

export function replyFrom(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('activity').addColumn('from_address', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('activity').dropColumn('from_address').execute();
    },
  };
}
