import type { Kysely, Migration } from 'kysely';

/** Who the owner gave a row to (`desk work assign`); the desk leaves an assigned row to that person. */
export function assignee(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('work').addColumn('assignee', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('work').dropColumn('assignee').execute();
    },
  };
}
