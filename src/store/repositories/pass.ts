import { sql, type Kysely } from 'kysely';
import type { Database, WorkRow } from '../schema.ts';
import { NO_DATE_KEY } from './work.ts';

// What a work pass reads: only rows the desk could act on, through the partial indexes of
// migrations 007, 010 and 011 (work_pass_due, work_pass_waiting), so its cost follows the rows
// in reach and not the size of the queue. Each condition below repeats the index's predicate
// word for word, which is what lets both planners use it (work_pass_due's `class is not null`
// follows from `class = ?`).

const ACTIONABLE = sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0`;

/** Where a pass reads the rows it could act on: one index range, walked in its own order. */
export type PassSource =
  /** Rows of one class due by `horizon`. */
  | { kind: 'due'; cls: string; horizon: string }
  /** Rows of one class with no due date. */
  | { kind: 'undated'; cls: string }
  /** Rows out with somebody since before `before` (an ISO date or instant). */
  | { kind: 'waiting'; before: string };

/** The last row of a page: its key in the source's order (due_key or waiting_since) and id. */
export interface PassPosition {
  key: string;
  id: number;
}

/**
 * Up to `count` rows of the source after `after`, in the order of its index: a page costs the
 * rows on it, so a pass holds one page at a time however many rows are in reach.
 */
export async function passPage(
  db: Kysely<Database>,
  deskId: string,
  source: PassSource,
  after: PassPosition | null,
  count: number,
): Promise<WorkRow[]> {
  const column = source.kind === 'waiting' ? 'waiting_since' : 'due_key';
  const rows = () => {
    const q = db.selectFrom('work').selectAll().where('desk_id', '=', deskId);
    if (source.kind === 'waiting')
      return q
        .where('waiting_since', '<', source.before)
        .where(
          sql<boolean>`status in ('open', 'waiting') and last_error is null and needs_person = 0 and waiting_on is not null`,
        );
    return q
      .where('class', '=', source.cls)
      .where('due_key', source.kind === 'due' ? '<=' : '=', source.kind === 'due' ? source.horizon : NO_DATE_KEY)
      .where(ACTIONABLE);
  };
  if (!after) return rows().orderBy(column).orderBy('id').limit(count).execute();
  // The rest of the page's key, then the keys after it: two seeks. One comparison of (key, id)
  // pairs would start each page at the key's first row, and many rows can share a due date.
  const same = await rows()
    .where(column, '=', after.key)
    .where('id', '>', after.id)
    .orderBy('id')
    .limit(count)
    .execute();
  if (same.length === count) return same;
  const next = await rows()
    .where(column, '>', after.key)
    .orderBy(column)
    .orderBy('id')
    .limit(count - same.length)
    .execute();
  return [...same, ...next];
}

/** The position of a row in its source's order. */
export function passPosition(source: PassSource, row: WorkRow): PassPosition {
  return { key: (source.kind === 'waiting' ? row.waiting_since : row.due_key) ?? '', id: row.id };
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
