import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// An address is compared with A to Z in small letters and every other letter as written, as
// SQLite's `lower` has it. PostgreSQL's `lower` folds every letter, so its index of addresses
// holds them folded by the "C" collation's rules, which are SQLite's; SQLite's stays as it is.

export function addressesAsciiCase(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await db.schema.dropIndex('activity_sent_to').ifExists().execute();
      await sql`create index activity_sent_to on activity (desk_id, lower(to_address collate "C"), sent_at)`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await db.schema.dropIndex('activity_sent_to').ifExists().execute();
      await sql`create index activity_sent_to on activity (desk_id, lower(to_address), sent_at)`.execute(db);
    },
  };
}
