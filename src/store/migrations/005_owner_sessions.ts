import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The owner's sign-in to the screen: one-time links and the sessions they start. Only a
// SHA-256 of each token is stored, so a copy of the database signs nobody in.

export function ownerSessions(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('owner_links')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('owner_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('owner_sessions_desk').on('owner_sessions').column('desk_id').execute();
      await db.schema.createIndex('owner_links_desk').on('owner_links').column('desk_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('owner_sessions').execute();
      await db.schema.dropTable('owner_links').execute();
    },
  };
}
