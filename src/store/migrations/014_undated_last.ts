import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A row with no due date was kept under the sort key 9999-12-31, the key of a row due that
// very day: the two then ordered by id, where D17 puts "no date last", and an arrangement
// whose next open row is due that day reported no next date. The undated key becomes
// 9999-12-32, ten characters like every date and after all of them. The per-arrangement
// counts under the old key held both kinds of row, so they are counted again from the rows.
// Written with the keys themselves: a migration stays as it was when made.

const OPEN = sql<boolean>`status in ('open', 'in_progress', 'waiting')`;

async function moveUndated(db: Kysely<any>, from: string, to: string): Promise<void> {
  await sql`update work set due_key = ${to} where due_date is null and due_key = ${from}`.execute(db);
  await sql`delete from open_arrangement_counts where due_key in (${from}, ${to})`.execute(db);
  await sql`
    insert into open_arrangement_counts (desk_id, arrangement_id, due_key, n)
    select desk_id, arrangement_id, due_key, count(*)
    from work where ${OPEN} and arrangement_id is not null and due_key in (${from}, ${to})
    group by desk_id, arrangement_id, due_key
  `.execute(db);
}

export function undatedLast(_dialect: DialectName): Migration {
  return {
    up: (db: Kysely<any>) => moveUndated(db, '9999-12-31', '9999-12-32'),
    down: (db: Kysely<any>) => moveUndated(db, '9999-12-32', '9999-12-31'),
  };
}
