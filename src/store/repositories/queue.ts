import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';

// Reads the open queue in index order (priority desc, due_key, id), one band of due dates at
// a time, from a position onwards. No OFFSET and no sort of the queue: it walks an index.
//
// A plain range scan with `due_key` as a filter would pass over every row outside the band
// (every row on time, say, while looking for the few overdue ones), so its cost would grow
// with the queue. Instead the walk is a recursive query that takes, within one priority, the
// next row of the band after the position (one seek), and when a priority has no more,
// jumps to the next lower priority present (one seek). A page costs at most
// (rows on it + priorities passed) index seeks, whatever the size of the queue.
//
// A filter narrows the walk to the index that leads with it (migration 002), so a filtered
// walk passes only over the rows of its arrangement, kind or status, not the whole queue.

/** The partial indexes' predicate, written exactly as they have it so both planners match it. */
const OPEN_ROW = (alias: string) => sql.raw(`${alias}.status in ('open', 'in_progress', 'waiting')`);

/**
 * The kinds of a desk's open rows, in order: one seek into the kind index per kind (the
 * smallest kind after the last one found), however many rows share each.
 */
export async function openKinds(db: Kysely<Database>, deskId: string): Promise<string[]> {
  const next = (after: RawBuilder<unknown> | null) =>
    sql`(select min(w.kind) from work w where w.desk_id = ${deskId} and ${OPEN_ROW('w')}${after ? sql` and w.kind > ${after}` : sql``})`;
  const r = await sql<{ kind: string }>`
    with recursive k(kind) as (select ${next(null)} union all select ${next(sql.ref('k.kind'))} from k where k.kind is not null)
    select kind from k where kind is not null`.execute(db);
  return r.rows.map((x) => x.kind);
}

/** A place in the queue's order: the row's priority, due_key and id. */
export interface QueueEntry {
  priority: number;
  dueKey: string;
  id: number;
}

export interface QueueFilters {
  status?: string;
  kind?: string;
  /** Must be an arrangement of the desk: the walk then reads that arrangement's rows only. */
  arrangementId?: number;
}

export interface QueueBand {
  /** The least `due_key` in the band; also the position before a priority's first row. */
  from: string;
  /** Rows with `due_key` below this only; none when the band runs to the end. */
  below?: string;
}

/**
 * The places of up to `count` open rows of the desk whose due_key lies in the band and that
 * match the filters, in queue order, strictly after `after` (or from the top when it is null).
 */
export async function walkQueue(
  db: Kysely<Database>,
  deskId: string,
  band: QueueBand,
  after: QueueEntry | null,
  filters: QueueFilters,
  count: number,
): Promise<QueueEntry[]> {
  const result = await walkQuery(deskId, band, after, filters, count).execute(db);
  return result.rows.map((r) => ({ id: Number(r.id), priority: Number(r.priority), dueKey: r.due_key }));
}

/**
 * Which index the walk follows, as the equality conditions that lead it, and what is left to
 * check on each row. An arrangement belongs to one desk, so its walk does not name the desk
 * (which would let a planner without statistics take the desk-wide index instead).
 */
function scopeOf(deskId: string, f: QueueFilters) {
  if (f.arrangementId !== undefined) {
    return {
      lead: (a: string) => [sql`${sql.ref(`${a}.arrangement_id`)} = ${f.arrangementId}`],
      rest: { status: f.status, kind: f.kind },
    };
  }
  const desk = (a: string) => sql`${sql.ref(`${a}.desk_id`)} = ${deskId}`;
  if (f.kind !== undefined)
    return { lead: (a: string) => [desk(a), sql`${sql.ref(`${a}.kind`)} = ${f.kind}`], rest: { status: f.status } };
  if (f.status !== undefined)
    return { lead: (a: string) => [desk(a), sql`${sql.ref(`${a}.status`)} = ${f.status}`], rest: {} };
  return { lead: (a: string) => [desk(a)], rest: {} };
}

/** The statement walkQueue runs; separate so that its plan can be inspected. */
export function walkQuery(
  deskId: string,
  band: QueueBand,
  after: QueueEntry | null,
  filters: QueueFilters,
  count: number,
) {
  const scope = scopeOf(deskId, filters);
  const within = (a: string) => sql.join([...scope.lead(a), OPEN_ROW(a)], sql` and `);
  const conds: RawBuilder<unknown>[] = [];
  if (band.below !== undefined) conds.push(sql`x.due_key < ${band.below}`);
  if (scope.rest.status !== undefined) conds.push(sql`x.status = ${scope.rest.status}`);
  if (scope.rest.kind !== undefined) conds.push(sql`x.kind = ${scope.rest.kind}`);
  const extra = conds.length ? sql` and ${sql.join(conds, sql` and `)}` : sql``;

  // The first row of the band in priority `p` strictly after (key, id): one seek.
  const nextIn = (p: RawBuilder<unknown>, key: RawBuilder<unknown>, id: RawBuilder<unknown>) => sql`(
    select x.id from work x
    where ${within('x')} and x.priority = ${p} and (x.due_key, x.id) > (${key}, ${id})${extra}
    order by x.due_key, x.id limit 1)`;
  // The next lower priority that has rows in scope: one seek.
  const below = (p: RawBuilder<unknown>) =>
    sql`(select g.priority from work g where ${within('g')} and g.priority < ${p} order by g.priority desc limit 1)`;
  const top = sql`(select g.priority from work g where ${within('g')} order by g.priority desc limit 1)`;
  const from = sql`cast(${band.from} as text)`;

  // A walk row is (priority, row id or null when that priority has no more, rows found before it).
  const start = after
    ? sql`select cast(${after.priority} as integer), ${nextIn(sql`cast(${after.priority} as integer)`, sql`cast(${after.dueKey} as text)`, sql`cast(${after.id} as integer)`)}, 0`
    : sql`select ${top}, ${nextIn(top, from, sql`0`)}, 0`;
  // The key of the row just found, read back in the same statement (so from the same snapshot).
  const keyOf = sql`(select y.due_key from work y where y.id = w.i)`;
  const found = sql`case when w.i is null then 0 else 1 end`;

  return sql<{ id: number; priority: number; due_key: string }>`
    with recursive walk(p, i, n) as (
      ${start}
      union all
      select
        case when w.i is null then ${below(sql`w.p`)} else w.p end,
        case when w.i is null then ${nextIn(below(sql`w.p`), from, sql`0`)} else ${nextIn(sql`w.p`, keyOf, sql`w.i`)} end,
        w.n + ${found}
      from walk w
      where w.p is not null and w.n + ${found} < ${count}
    )
    select walk.i as id, walk.p as priority, (select y.due_key from work y where y.id = walk.i) as due_key
    from walk
    where walk.i is not null
    order by walk.n
  `;
}
