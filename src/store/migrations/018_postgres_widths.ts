import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Two places where PostgreSQL answered otherwise than SQLite, which needs nothing here:
// - IMAP numbers a message with a UID of up to 2^32 - 1, past PostgreSQL's `integer`; a mailbox
//   holding such a message could not be read at all.
// - The text a list is ordered by was ordered by the database's collation, which on many
//   installs is a language's (`en_US.UTF-8`), so domains, kinds and playbooks came in another
//   order than on SQLite, which orders by the bytes. `C` orders by the bytes too.

const ORDERED_TEXT: ReadonlyArray<readonly [table: string, column: string]> = [
  ['work', 'kind'],
  ['domains', 'name'],
  ['playbooks', 'name'],
];

export function postgresWidths(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`alter table mail_reads alter column last_uid type bigint`.execute(db);
      await sql`alter table mail_seen alter column uid type bigint`.execute(db);
      for (const [table, column] of ORDERED_TEXT)
        await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type text collate "C"`.execute(db);
      // A column whose type changes loses its statistics; a table with rows has them read again,
      // so its plans do not wait for the next automatic analysis.
      for (const table of new Set(ORDERED_TEXT.map(([t]) => t))) {
        const some = await sql`select 1 from ${sql.table(table)} limit 1`.execute(db);
        if (some.rows.length > 0) await sql`analyze ${sql.table(table)}`.execute(db);
      }
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const [table, column] of ORDERED_TEXT)
        await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type text collate "default"`.execute(
          db,
        );
      await sql`alter table mail_seen alter column uid type integer`.execute(db);
      await sql`alter table mail_reads alter column last_uid type integer`.execute(db);
    },
  };
}
