import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The rails on what a desk does on its own (working hours, a daily cap, how far ahead it acts,
// a pause switch), and on each row how often it may be chased, how often it has been, and when
// the desk last acted on it by itself. Two partial indexes hold only the rows a pass can act
// on, so a pass reads those and not the whole queue.

const ACTIONABLE = sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0`;

export function deskRails(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('desks')
        .addColumn('hours', 'text', (c) => c.notNull().defaultTo('mon-fri 09:00-17:00'))
        .execute();
      await db.schema
        .alterTable('desks')
        .addColumn('daily_cap', 'integer', (c) => c.notNull().defaultTo(20))
        .execute();
      await db.schema
        .alterTable('desks')
        .addColumn('act_within_days', 'integer', (c) => c.notNull().defaultTo(14))
        .execute();
      await db.schema
        .alterTable('desks')
        .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('work')
        .addColumn('max_chases', 'integer', (c) => c.notNull().defaultTo(3))
        .execute();
      await db.schema
        .alterTable('work')
        .addColumn('chases', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('work').addColumn('desk_acted_at', 'text').execute();
      // Rows in reach by date, per class: the pass asks for each granted class in turn.
      await db.schema
        .createIndex('work_pass_due')
        .on('work')
        .columns(['desk_id', 'class', 'due_key'])
        .where(ACTIONABLE)
        .execute();
      // Rows out with somebody, oldest first: the ones a chase may be due on.
      await db.schema
        .createIndex('work_pass_waiting')
        .on('work')
        .columns(['desk_id', 'waiting_since'])
        .where(
          sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0 and waiting_on is not null`,
        )
        .execute();
      // What the desk did on its own today: the daily cap and the owner's record.
      await db.schema.createIndex('work_desk_acted').on('work').columns(['desk_id', 'desk_acted_at']).execute();
      // A second message to one address within a day is held back: found by address.
      await db.schema
        .createIndex('activity_sent_to')
        .on('activity')
        .columns(['desk_id', 'to_address', 'sent_at'])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const name of ['work_pass_due', 'work_pass_waiting', 'work_desk_acted', 'activity_sent_to'])
        await db.schema.dropIndex(name).ifExists().execute();
      for (const c of ['desk_acted_at', 'chases', 'max_chases'])
        await db.schema.alterTable('work').dropColumn(c).execute();
      for (const c of ['paused', 'act_within_days', 'daily_cap', 'hours'])
        await db.schema.alterTable('desks').dropColumn(c).execute();
    },
  };
}
