import { sql, type Kysely, type Migration } from 'kysely';
import { serialKey, serialType, type DialectName } from '../dialect.ts';

const OPEN = sql<boolean>`status in ('open', 'in_progress', 'waiting')`;

export function initial(dialect: DialectName): Migration {
  const id = serialType(dialect);
  const pk = serialKey(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('desks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('broker', 'text')
        .addColumn('open_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      // No foreign key to desks: a key outlives its deleted desk so that it can answer 403 no_desk.
      await db.schema
        .createTable('api_keys')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_desk').on('api_keys').column('desk_id').execute();

      await db.schema
        .createTable('grants')
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('class', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('grants_pk', ['desk_id', 'class'])
        .execute();

      await db.schema
        .createTable('arrangements')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('counterparty', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('starts_on', 'text')
        .addColumn('ends_on', 'text')
        .addColumn('renews_on', 'text')
        .addColumn('amount_cents', 'bigint')
        .addColumn('currency', 'text')
        .addColumn('contact_name', 'text')
        .addColumn('contact_email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('arrangements_desk').on('arrangements').column('desk_id').execute();

      await db.schema
        .createTable('units')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('arrangement_id', 'integer', (c) => c.references('arrangements.id').onDelete('set null'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('units_desk_type').on('units').columns(['desk_id', 'type', 'position']).execute();

      await db.schema
        .createTable('connections')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('auth_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('connections_desk').on('connections').column('desk_id').execute();

      await db.schema
        .createTable('playbooks')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('connection_id', 'integer', (c) => c.references('connections.id').onDelete('set null'))
        .addColumn('steps', 'text', (c) => c.notNull())
        .addUniqueConstraint('playbooks_desk_name', ['desk_id', 'name'])
        .execute();

      await db.schema
        .createTable('watches')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('subject_type', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('lead_days', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('every', 'text')
        .addColumn('priority', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('watches_desk').on('watches').column('desk_id').execute();

      await db.schema
        .createTable('work')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('due_date', 'text')
        .addColumn('due_key', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('class', 'text')
        .addColumn('needs_person', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('chase_after_days', 'integer', (c) => c.notNull().defaultTo(7))
        .addColumn('contact_name', 'text')
        .addColumn('contact_email', 'text')
        .addColumn('waiting_on', 'text')
        .addColumn('waiting_since', 'text')
        .addColumn('last_error', 'text')
        .addColumn('arrangement_id', 'integer', (c) => c.references('arrangements.id').onDelete('set null'))
        .addColumn('unit_id', 'integer', (c) => c.references('units.id').onDelete('set null'))
        .addColumn('playbook_id', 'integer', (c) => c.references('playbooks.id').onDelete('set null'))
        .addColumn('watch_id', 'integer', (c) => c.references('watches.id').onDelete('set null'))
        .addColumn('watch_date', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text')
        .execute();
      // The queue's keyset: open rows of one desk in presentation order.
      await db.schema
        .createIndex('work_queue')
        .on('work')
        .columns(['desk_id', 'priority desc', 'due_key', 'id'])
        .where(OPEN)
        .execute();
      await db.schema.createIndex('work_desk_status').on('work').columns(['desk_id', 'status']).execute();
      await db.schema.createIndex('work_arrangement').on('work').columns(['arrangement_id']).execute();
      // One row per watch, unit and date, even with several schedulers on one database.
      await db.schema
        .createIndex('work_watch_once')
        .on('work')
        .columns(['watch_id', 'unit_id', 'watch_date'])
        .unique()
        .execute();

      await db.schema
        .createTable('runs')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('work_id', 'integer', (c) => c.notNull().references('work.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('ms', 'integer')
        .addColumn('report', 'text')
        .execute();
      await db.schema.createIndex('runs_work').on('runs').column('work_id').execute();

      await db.schema
        .createTable('activity')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('obligation_id', 'integer', (c) => c.references('work.id').onDelete('cascade'))
        .addColumn('arrangement_id', 'integer', (c) => c.references('arrangements.id').onDelete('cascade'))
        .addColumn('outcome_id', 'integer')
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('failure_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .addColumn('approved_at', 'text')
        .execute();
      await db.schema.createIndex('activity_desk').on('activity').columns(['desk_id', 'id']).execute();
      await db.schema.createIndex('activity_work').on('activity').columns(['obligation_id', 'status']).execute();
      await db.schema.createIndex('activity_arrangement').on('activity').columns(['arrangement_id']).execute();

      await db.schema
        .createTable('timeline')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('work_id', 'integer', (c) => c.notNull().references('work.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('timeline_work').on('timeline').columns(['work_id', 'id']).execute();

      await db.schema
        .createTable('events')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_desk').on('events').columns(['desk_id', 'id']).execute();

      await db.schema
        .createTable('domains')
        .addColumn('id', id, pk)
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('registrar', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('renewal_on', 'text')
        .addColumn('amount_cents', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('broker_name', 'text')
        .addColumn('notes', 'text')
        .execute();
      await db.schema.createIndex('domains_desk').on('domains').column('desk_id').execute();

      await db.schema
        .createTable('sections')
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('blurb', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('kinds', 'text', (c) => c.notNull())
        .addColumn('unit', 'text')
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('why', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sections_pk', ['desk_id', 'id'])
        .execute();

      await db.schema
        .createTable('idempotency')
        .addColumn('desk_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('http_status', 'integer')
        .addColumn('body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_pk', ['desk_id', 'key'])
        .execute();
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema.createIndex('idempotency_expiry').on('idempotency').column('expires_at').execute();
    },
    async down() {
      throw new Error('the initial schema cannot be rolled back');
    },
  };
}
