import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Reading the desk's mailbox. Each mail connection remembers the mailbox's UIDVALIDITY and the
// last UID it read, and whether the last pass reached the server. Every message a pass handled
// has a unique (connection, UIDVALIDITY, UID) record, written in the same transaction as what
// the message did, so two passes or two server processes handle a message once. A reply marks
// its row until a person has seen to it, and lists its attachments by name and size.

export function mailReading(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('mail_reads')
        .addColumn('connection_id', 'integer', (c) => c.primaryKey().references('connections.id').onDelete('cascade'))
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('uidvalidity', 'text')
        .addColumn('last_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('checked_at', 'text')
        .execute();
      await db.schema
        .createTable('mail_seen')
        .addColumn('connection_id', 'integer', (c) => c.notNull().references('connections.id').onDelete('cascade'))
        .addColumn('uidvalidity', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('message_id', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('handled_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_seen_pk', ['connection_id', 'uidvalidity', 'uid'])
        .execute();
      // A reset mailbox is read again; a message already handled is known by its Message-ID.
      await db.schema
        .createIndex('mail_seen_message')
        .on('mail_seen')
        .columns(['connection_id', 'message_id'])
        .execute();
      await db.schema.alterTable('work').addColumn('replied_by', 'text').execute();
      await db.schema.alterTable('work').addColumn('replied_at', 'text').execute();
      await db.schema.alterTable('activity').addColumn('attachments', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('activity').dropColumn('attachments').execute();
      await db.schema.alterTable('work').dropColumn('replied_at').execute();
      await db.schema.alterTable('work').dropColumn('replied_by').execute();
      await db.schema.dropTable('mail_seen').execute();
      await db.schema.dropTable('mail_reads').execute();
    },
  };
}
