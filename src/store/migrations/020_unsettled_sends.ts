import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The messages claimed for sending whose send has not yet recorded how it ended, by desk and
// when they were claimed: a pass finds those a stopped process left behind without reading the
// desk's whole correspondence. Few rows at any time, so a small index. Its condition is the one
// repositories/unsettled.ts asks, word for word, so that SQLite takes it.

export function unsettledSends(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('activity_unsettled')
        .on('activity')
        .columns(['desk_id', 'approved_at'])
        .where(sql<boolean>`kind = 'message' and status = 'approved' and sent_at is null and failure_reason is null`)
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('activity_unsettled').ifExists().execute();
    },
  };
}
