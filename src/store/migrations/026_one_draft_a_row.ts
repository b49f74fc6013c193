import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A row holds one prepared message, the newest, which is the one the desk sends (P-import-18).
// A business file read before that rule could leave several; the older ones were never sent,
// nor withdrawn when the row finished, and an export then wrote a file the import refuses. They
// are withdrawn, as a draft the desk will not send is. Written out here: a migration stays as it
// was when made.

export function oneDraftARow(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const stale = (await db
        .selectFrom('activity as a')
        .select('a.id')
        .where('a.kind', '=', 'message')
        .where('a.status', '=', 'drafted')
        .where('a.obligation_id', 'is not', null)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('activity as b')
              .select('b.id')
              .whereRef('b.desk_id', '=', 'a.desk_id')
              .whereRef('b.obligation_id', '=', 'a.obligation_id')
              .where('b.kind', '=', 'message')
              .where('b.status', '=', 'drafted')
              .whereRef('b.id', '>', 'a.id'),
          ),
        )
        .execute()) as Array<{ id: number }>;
      for (let i = 0; i < stale.length; i += 500)
        await db
          .deleteFrom('activity')
          .where(
            'id',
            'in',
            stale.slice(i, i + 500).map((s) => s.id),
          )
          .execute();
    },
    // What was there before is not kept anywhere to put back.
    async down() {},
  };
}
