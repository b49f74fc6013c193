import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// Ids go no higher than 2,147,483,647: PostgreSQL's serial columns are int4, and the doors
// refuse a larger id in a path, a command or a cursor. SQLite's AUTOINCREMENT would go on past
// it, to rows none of them could reach; each numbered table now refuses such a row, and
// store/trouble.ts says so, as PostgreSQL's sequence at its end does. A later change that
// rebuilds one of these tables on SQLite must make its trigger again. The names are written out
// here: a migration stays as it was when made.

export const NUMBERED_TABLES = [
  'api_keys',
  'arrangements',
  'units',
  'connections',
  'playbooks',
  'watches',
  'work',
  'runs',
  'activity',
  'timeline',
  'events',
  'domains',
] as const;

export function idCeiling(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const table of NUMBERED_TABLES)
        await sql
          .raw(
            `create trigger ${table}_id_ceiling after insert on ${table} when new.id > 2147483647 begin select raise(abort, 'ids used up: ${table}'); end`,
          )
          .execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      for (const table of NUMBERED_TABLES) await sql.raw(`drop trigger if exists ${table}_id_ceiling`).execute(db);
    },
  };
}
