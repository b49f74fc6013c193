import { sql, type Kysely } from 'kysely';
import type { Database, DeskRow } from '../schema.ts';

// Reads and writes for the business file both ways: a whole desk read in one go for the
// export, and what the screen's import checks and changes on a desk that exists already.

/** Every row on the desk, open and finished, oldest first. */
/** Every row of the desk, by id. */
export async function allWorkOf(db: Kysely<Database>, deskId: string) {
  return db.selectFrom('work').selectAll().where('desk_id', '=', deskId).orderBy('id').execute();
}

/** The desk's rows after row `after`, by id, `most` of them. */
export async function workAfter(db: Kysely<Database>, deskId: string, after: number, most: number) {
  return db
    .selectFrom('work')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(most)
    .execute();
}

/** Every message on the desk's rows `first` to `last` (ids), oldest first. */
export async function messagesOfRows(db: Kysely<Database>, deskId: string, first: number, last: number) {
  return db
    .selectFrom('activity')
    .select(['obligation_id', 'channel', 'direction', 'subject', 'body', 'to_address', 'status', 'actor', 'sent_at'])
    .where('desk_id', '=', deskId)
    .where('kind', '=', 'message')
    .where('obligation_id', '>=', first)
    .where('obligation_id', '<=', last)
    .orderBy('id')
    .execute();
}

export async function playbooksOf(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('playbooks')
    .select(['id', 'name', 'connection_id', 'steps'])
    .where('desk_id', '=', deskId)
    .orderBy('id')
    .execute();
}

const HELD = [
  'work',
  'arrangements',
  'units',
  'watches',
  'connections',
  'domains',
  'sections',
  'playbooks',
  'grants',
] as const;
export type HeldTable = (typeof HELD)[number];

/** Counted up to this many of each kind, and one more to say there are more. */
export const HELD_COUNTED = 1000;

/**
 * How many entries of each kind the desk holds, up to HELD_COUNTED + 1; an empty desk has none
 * of any. Counted no further, so the page that asks costs the same on a desk of a million rows.
 */
export async function heldOn(db: Kysely<Database>, deskId: string): Promise<Record<HeldTable, number>> {
  const out = {} as Record<HeldTable, number>;
  for (const t of HELD) {
    const r = await sql<{ n: number | string }>`select count(*) as n from (
        select 1 as one from ${sql.table(t)} where desk_id = ${deskId} limit ${HELD_COUNTED + 1}) held`.execute(db);
    out[t] = Number(r.rows[0]?.n ?? 0);
  }
  return out;
}

/** Rewrites the desk's own settings; its id and slug stay. */
export async function setDeskSettings(
  db: Kysely<Database>,
  deskId: string,
  s: Pick<
    DeskRow,
    'name' | 'plan' | 'timezone' | 'currency' | 'broker' | 'hours' | 'daily_cap' | 'act_within_days' | 'paused'
  >,
): Promise<void> {
  await db.updateTable('desks').set(s).where('id', '=', deskId).execute();
}
