import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.ts';

// A desk page's block collects at most 50 kinds and explains at most 50 fields, as a business
// file may give them. A block a language model added before held any number (one held 20,000
// of each); it keeps its first 50 of each, so the desk's export imports again. Written with the
// number itself: a migration stays as it was when made.

const MOST = 50;

function cut(text: string | null): string | null {
  if (text === null) return null;
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list) && list.length > MOST ? JSON.stringify(list.slice(0, MOST)) : null;
  } catch {
    return null;
  }
}

export function blockLists(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const rows = (await db.selectFrom('sections').select(['desk_id', 'id', 'kinds', 'fields']).execute()) as Array<{
        desk_id: string;
        id: string;
        kinds: string | null;
        fields: string | null;
      }>;
      for (const r of rows) {
        const kinds = cut(r.kinds);
        const fields = cut(r.fields);
        if (kinds === null && fields === null) continue;
        await db
          .updateTable('sections')
          .set({ ...(kinds !== null ? { kinds } : {}), ...(fields !== null ? { fields } : {}) })
          .where('desk_id', '=', r.desk_id)
          .where('id', '=', r.id)
          .execute();
      }
    },
    // What was cut is not kept anywhere to put back.
    async down() {},
  };
}
