import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// Reads and writes for the business file both ways: a whole desk read in one go for the
// export, and what the screen's import checks and changes on a desk that exists already.

/** Every row on the desk, open and finished, oldest first. */
export async function allWorkOf(db: Kysely<Database>, deskId: string) {
  return db.selectFrom('work').selectAll().where('desk_id', '=', deskId).orderBy('id').execute();
}

/** Every message on the desk's rows, oldest first. */
export async function messagesOfDesk(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('activity')
    .select(['obligation_id', 'channel', 'direction', 'subject', 'body', 'to_address', 'status', 'actor'])
    .where('desk_id', '=', deskId)
    .where('kind', '=', 'message')
    .where('obligation_id', 'is not', null)
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

/** The highest work id in the database, 0 when there is none: where a batch's new rows start after. */
export async function lastWorkId(db: Kysely<Database>): Promise<number> {
  const r = await db
    .selectFrom('work')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(r?.id ?? 0);
}

/**
 * The ids of the desk's first `count` rows above `after`, lowest first: the rows a batch has
 * just written, in the order it wrote them (each database numbers a statement's rows in
 * order). Read by the primary key alone, since SQLite would otherwise read every row of the
 * desk through an index that leads with it and sort them; another desk's rows in the range
 * are passed over.
 */
export async function workIdsAfter(db: Kysely<Database>, deskId: string, after: number, count: number) {
  const ids: number[] = [];
  for (let from = after; ids.length < count; ) {
    const rows = await db
      .selectFrom('work')
      .select(['id', 'desk_id'])
      .where('id', '>', from)
      .orderBy('id')
      .limit(count - ids.length)
      .execute();
    if (rows.length === 0) break;
    for (const r of rows) if (r.desk_id === deskId) ids.push(r.id);
    from = rows[rows.length - 1]!.id;
  }
  return ids;
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

/** How many entries of each kind the desk holds; an empty desk has none of any. */
export async function heldOn(db: Kysely<Database>, deskId: string): Promise<Record<HeldTable, number>> {
  const out = {} as Record<HeldTable, number>;
  for (const t of HELD) {
    const r = await db
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('desk_id', '=', deskId)
      .executeTakeFirstOrThrow();
    out[t] = Number(r.n);
  }
  return out;
}

/** Rewrites the desk's own settings; its id and slug stay. */
export async function setDeskSettings(
  db: Kysely<Database>,
  deskId: string,
  s: { name: string; plan: string; timezone: string; currency: string; broker: string | null },
): Promise<void> {
  await db.updateTable('desks').set(s).where('id', '=', deskId).execute();
}
