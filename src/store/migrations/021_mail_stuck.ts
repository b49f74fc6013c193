import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A message that passes cannot handle holds back every message after it in its mailbox. Each
// mailbox's record now counts the passes that stopped at the same message, a minute or more
// apart, so that after a few the desk passes over it, says so, and reads on (P-mail-5).

export function mailStuck(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('mail_reads')
        .addColumn('stuck_uid', dialect === 'postgres' ? 'bigint' : 'integer')
        .execute();
      await db.schema
        .alterTable('mail_reads')
        .addColumn('stuck_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('mail_reads').addColumn('stuck_at', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('mail_reads').dropColumn('stuck_at').execute();
      await db.schema.alterTable('mail_reads').dropColumn('stuck_tries').execute();
      await db.schema.alterTable('mail_reads').dropColumn('stuck_uid').execute();
    },
  };
}
