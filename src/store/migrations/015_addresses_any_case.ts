import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The desk sends one message a day to an address, and `lee@same.test` and `Lee@Same.Test` are
// one mailbox: a message is found by its address in lower case, so the index holds that.

export function addressesAnyCase(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('activity_sent_to').ifExists().execute();
      await sql`create index activity_sent_to on activity (desk_id, lower(to_address), sent_at)`.execute(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('activity_sent_to').ifExists().execute();
      await db.schema
        .createIndex('activity_sent_to')
        .on('activity')
        .columns(['desk_id', 'to_address', 'sent_at'])
        .execute();
    },
  };
}
