import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// What the desk has handled from its mailboxes outlives a mailbox removed from the desk: one
// added again reads the last 14 days afresh (P-mail-5), and must know every message it handled
// then, by Message-ID or, for mail without one, by its digest. So the records no longer go with
// their connection, and are found by desk. Connection ids are never given out again (SQLite's
// AUTOINCREMENT, PostgreSQL's serial), so an old record cannot be taken for a new mailbox's.

export function mailSeenKept(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        const fks = await sql<{ name: string }>`select conname as name from pg_constraint
          where conrelid = 'mail_seen'::regclass and confrelid = 'connections'::regclass and contype = 'f'`.execute(db);
        for (const fk of fks.rows) await sql`alter table mail_seen drop constraint ${sql.id(fk.name)}`.execute(db);
        await db.schema.dropIndex('mail_seen_message').execute();
      } else {
        // SQLite changes a table's foreign keys only by making the table again.
        await sql`create table mail_seen_kept (
          connection_id integer not null,
          uidvalidity text not null,
          uid integer not null,
          desk_id text not null references desks (id) on delete cascade,
          message_id text,
          outcome text not null,
          handled_at text not null,
          constraint mail_seen_pk primary key (connection_id, uidvalidity, uid))`.execute(db);
        await sql`insert into mail_seen_kept (connection_id, uidvalidity, uid, desk_id, message_id, outcome, handled_at)
          select connection_id, uidvalidity, uid, desk_id, message_id, outcome, handled_at from mail_seen`.execute(db);
        await sql`drop table mail_seen`.execute(db);
        await sql`alter table mail_seen_kept rename to mail_seen`.execute(db);
      }
      await db.schema.createIndex('mail_seen_message').on('mail_seen').columns(['desk_id', 'message_id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('mail_seen_message').execute();
      await sql`delete from mail_seen where connection_id not in (select id from connections)`.execute(db);
      if (dialect === 'postgres')
        await sql`alter table mail_seen add foreign key (connection_id) references connections (id) on delete cascade`.execute(
          db,
        );
      await db.schema
        .createIndex('mail_seen_message')
        .on('mail_seen')
        .columns(['connection_id', 'message_id'])
        .execute();
    },
  };
}
