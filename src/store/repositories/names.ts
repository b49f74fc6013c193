import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// The names of what a work row hangs off, for wording messages and answers.

export async function arrangementName(db: Kysely<Database>, deskId: string, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const r = await db
    .selectFrom('arrangements')
    .select('name')
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r?.name ?? null;
}

export async function unitName(db: Kysely<Database>, deskId: string, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const r = await db
    .selectFrom('units')
    .select('name')
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r?.name ?? null;
}
