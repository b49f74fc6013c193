import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../schema.ts';

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
    .select(['obligation_id', 'channel', 'direction', 'subject', 'body', 'to_address', 'status', 'actor', 'sent_at'])
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
  s: Pick<
    DeskRow,
    'name' | 'plan' | 'timezone' | 'currency' | 'broker' | 'hours' | 'daily_cap' | 'act_within_days' | 'paused'
  >,
): Promise<void> {
  await db.updateTable('desks').set(s).where('id', '=', deskId).execute();
}
