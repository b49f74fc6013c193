import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Counts of open rows kept beside desks.open_count, so that /permissions and /arrangements
// read a handful of stored numbers instead of counting the queue: per desk, by class and by
// whether the row is out with somebody; per arrangement, by due date (so "overdue" and "next
// due" are answered from at most one entry per date). Filled here from the rows already
// stored; from then on the work repository keeps them in the transaction of every write.

const OPEN = sql<boolean>`status in ('open', 'in_progress', 'waiting')`;

export function openCounts(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('open_class_counts')
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        // '' for rows with no class, so that the key is never NULL on either database.
        .addColumn('class', 'text', (c) => c.notNull())
        .addColumn('out', 'integer', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('open_class_counts_pk', ['desk_id', 'class', 'out'])
        .execute();
      await db.schema
        .createTable('open_arrangement_counts')
        .addColumn('desk_id', 'text', (c) => c.notNull().references('desks.id').onDelete('cascade'))
        .addColumn('arrangement_id', 'integer', (c) => c.notNull().references('arrangements.id').onDelete('cascade'))
        .addColumn('due_key', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('open_arrangement_counts_pk', ['desk_id', 'arrangement_id', 'due_key'])
        .execute();
      await sql`
        insert into open_class_counts (desk_id, class, out, n)
        select desk_id, coalesce(class, ''), case when waiting_on is null then 0 else 1 end, count(*)
        from work where ${OPEN}
        group by desk_id, coalesce(class, ''), case when waiting_on is null then 0 else 1 end
      `.execute(db);
      await sql`
        insert into open_arrangement_counts (desk_id, arrangement_id, due_key, n)
        select desk_id, arrangement_id, due_key, count(*)
        from work where ${OPEN} and arrangement_id is not null
        group by desk_id, arrangement_id, due_key
      `.execute(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('open_arrangement_counts').execute();
      await db.schema.dropTable('open_class_counts').execute();
    },
  };
}
