import { sql, type Kysely } from 'kysely';
import type { Database, WorkRow } from '../schema.ts';
import { NO_DATE_KEY } from './work.ts';

// What a work pass reads: only rows the desk could act on, through the partial indexes of
// migration 007 (work_pass_due, work_pass_waiting), so its cost follows the rows in reach and
// not the size of the queue. Each condition below repeats the index's predicate word for word,
// which is what lets both planners use it.

const ACTIONABLE = sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0`;

/** Rows of one class due by `horizon`, or undated. */
export async function rowsInReach(
  db: Kysely<Database>,
  deskId: string,
  cls: string,
  horizon: string,
): Promise<WorkRow[]> {
  const dated = db
    .selectFrom('work')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('class', '=', cls)
    .where('due_key', '<=', horizon)
    .where(ACTIONABLE)
    .execute();
  const undated = db
    .selectFrom('work')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('class', '=', cls)
    .where('due_key', '=', NO_DATE_KEY)
    .where(ACTIONABLE)
    .execute();
  return [...(await dated), ...(await undated)];
}

/** Rows out with somebody since before `before` (an ISO date or instant). */
export async function rowsWaitingSince(db: Kysely<Database>, deskId: string, before: string): Promise<WorkRow[]> {
  return db
    .selectFrom('work')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('waiting_since', '<', before)
    .where(
      sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0 and waiting_on is not null`,
    )
    .execute();
}

/** How many rows the desk has acted on by itself at or after `since`. */
export async function countActedSince(db: Kysely<Database>, deskId: string, since: string): Promise<number> {
  const r = await db
    .selectFrom('work')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('desk_id', '=', deskId)
    .where('desk_acted_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The rows the desk has acted on by itself at or after `since`, newest first. */
export async function actedSince(db: Kysely<Database>, deskId: string, since: string, limit = 200): Promise<WorkRow[]> {
  return db
    .selectFrom('work')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('desk_acted_at', '>=', since)
    .orderBy('desk_acted_at', 'desc')
    .limit(limit)
    .execute();
}
