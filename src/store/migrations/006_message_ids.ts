import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Every message the desk sends keeps the Message-ID it went out with, so a follow-up can be
// threaded on it and a reply can be matched to it. Indexed by desk, because a reply is looked
// up by the id it names.

export function messageIds(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('activity').addColumn('message_id', 'text').execute();
      await db.schema.createIndex('activity_message_id').on('activity').columns(['desk_id', 'message_id']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('activity_message_id').execute();
      await db.schema.alterTable('activity').dropColumn('message_id').execute();
    },
  };
}
