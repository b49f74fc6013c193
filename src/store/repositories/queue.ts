import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { OPEN_STATUSES } from '../../domain/vocab.ts';

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
// A filter narrows the walk to the index that leads with it (migration 004), so a filtered
// walk passes only over the rows of its arrangement, kind or status, not the whole queue.
// The whole queue has no index of its own (migration 012): it is the three status walks,
// merged. A write that moves a row in the queue (a snooze, say) then rewrites the pages of
// four indexes, not five, for the price of three short walks on an unfiltered read.

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
  const rows = (await walkQuery(deskId, band, after, filters, count).execute(db)).rows.map((r) => ({
    id: Number(r.id),
    priority: Number(r.priority),
    due_key: r.due_key,
  }));
  const places = isNarrowed(filters) ? rows : rows.sort(queueOrder).slice(0, count);
  return places.map((r) => ({ id: r.id, priority: r.priority, dueKey: r.due_key }));
}

/** The queue's order between two rows of one band: priority desc, then due_key, then id. */
export const queueOrder = (a: WalkRow, b: WalkRow) =>
  b.priority - a.priority || (a.due_key < b.due_key ? -1 : a.due_key > b.due_key ? 1 : 0) || a.id - b.id;

/**
 * The whole queue's order on `today` (D17): the overdue band (due before today) first, then
 * `queueOrder`; what `GET /work` walks as two bands, for rows already in hand.
 */
export const queueOrderOn =
  (today: string) =>
  (a: WalkRow, b: WalkRow): number =>
    Number(b.due_key < today) - Number(a.due_key < today) || queueOrder(a, b);

/** The statement walkQueue runs; separate so that its plan can be inspected. */
export function walkQuery(
  deskId: string,
  band: QueueBand,
  after: QueueEntry | null,
  filters: QueueFilters,
  count: number,
) {
  const walk = (name: string, f: Narrowed, upTo?: Place) => walkOf(name, deskId, band, after, f, count, upTo);
  if (isNarrowed(filters)) return sql<WalkRow>`with recursive ${walk('w0', filters)} ${placesOf(['w0'])}`;
  // The whole queue: each status walked in queue order, merged. Once the first (most often
  // the largest) has found `count` rows, the others stop at the last of them, since nothing
  // after it can make the page.
  const [first, ...others] = OPEN_STATUSES;
  const last = (col: string) =>
    sql`(select ${sql.ref(`f.${col}`)} from w0 f where f.s is not null and f.n = ${count - 1})`;
  const walks = [
    walk('w0', { status: first! }),
    ...others.map((status, i) => walk(`w${i + 1}`, { status }, { p: last('p'), s: last('s') })),
  ];
  return sql<WalkRow>`with recursive ${sql.join(walks, sql`, `)} ${placesOf(OPEN_STATUSES.map((_, i) => `w${i}`))}`;
}

/** The places the walks found: one walk's in queue order, merged walks' to be put in it. */
function placesOf(walks: string[]) {
  const found = walks.map(
    (w) => sql`select ${idOf(sql.ref('w.s'))} as id, w.p as priority, ${keyOf(sql.ref('w.s'))} as due_key
    from ${sql.table(w)} w where w.s is not null`,
  );
  // One walk's rows are in queue order as it found them. Merged walks' rows come unordered:
  // an ORDER BY here would have SQLite walk the first again, at three times the cost of
  // putting the few rows in order afterwards (walkQueue).
  return found.length === 1 ? sql`${found[0]!} order by w.n` : sql.join(found, sql` union all `);
}

// A place is a row's due_key and id as one value, so that a walk goes on from the row it found
// without reading it. A due_key is always ten characters (a date, or NO_DATE_KEY), so the id
// starts at the 11th.
/** A place in a walk: its priority and its place value, as expressions. */
interface Place {
  p: RawBuilder<unknown>;
  s: RawBuilder<unknown>;
}

const keyOf = (place: RawBuilder<unknown>) => sql`substr(${place}, 1, 10)`;
const idOf = (place: RawBuilder<unknown>) => sql`cast(substr(${place}, 11) as integer)`;

/** Filters that name an index to walk: a status, a kind or an arrangement. */
type Narrowed = QueueFilters & ({ status: string } | { kind: string } | { arrangementId: number });

function isNarrowed(f: QueueFilters): f is Narrowed {
  return f.status !== undefined || f.kind !== undefined || f.arrangementId !== undefined;
}

/**
 * Which index the walk follows, as the equality conditions that lead it, and what is left to
 * check on each row. An arrangement belongs to one desk, so its walk does not name the desk
 * (which would let a planner without statistics take the desk-wide index instead).
 */
function scopeOf(deskId: string, f: Narrowed) {
  if (f.arrangementId !== undefined) {
    return {
      lead: (a: string) => [sql`${sql.ref(`${a}.arrangement_id`)} = ${f.arrangementId}`],
      rest: { status: f.status, kind: f.kind },
    };
  }
  const desk = (a: string) => sql`${sql.ref(`${a}.desk_id`)} = ${deskId}`;
  if (f.kind !== undefined)
    return { lead: (a: string) => [desk(a), sql`${sql.ref(`${a}.kind`)} = ${f.kind}`], rest: { status: f.status } };
  return { lead: (a: string) => [desk(a), sql`${sql.ref(`${a}.status`)} = ${f.status}`], rest: {} };
}

interface WalkRow {
  id: number;
  priority: number;
  due_key: string;
}

/**
 * One walk down the index that leads with the filters (or the status), in queue order, as a
 * recursive table `name(p, s, n)`: a priority, the place found in it (null when that priority
 * has no more) and the rows found before it. With `upTo`, it goes no further than that place.
 */
function walkOf(
  name: string,
  deskId: string,
  band: QueueBand,
  after: QueueEntry | null,
  filters: Narrowed,
  count: number,
  upTo?: Place,
) {
  const scope = scopeOf(deskId, filters);
  const within = (a: string) => sql.join([...scope.lead(a), OPEN_ROW(a)], sql` and `);
  const conds: RawBuilder<unknown>[] = [];
  if (band.below !== undefined) conds.push(sql`x.due_key < ${band.below}`);
  if (scope.rest.status !== undefined) conds.push(sql`x.status = ${scope.rest.status}`);
  if (scope.rest.kind !== undefined) conds.push(sql`x.kind = ${scope.rest.kind}`);
  const extra = conds.length ? sql` and ${sql.join(conds, sql` and `)}` : sql``;

  // The place of the first row of the band in priority `p` strictly after (key, id): the next
  // with the same key, else the first with a later one. Two seeks, each on the whole of its key:
  // SQLite takes `(due_key, id) > (?, ?)` as `due_key >= ?` and steps over every row sharing the
  // key before the id, so a page among thousands of rows due the same day (or undated) cost
  // as many steps as rows before it.
  const nextIn = (p: RawBuilder<unknown>, key: RawBuilder<unknown>, id: RawBuilder<unknown>) => sql`coalesce(
    (select x.due_key || cast(x.id as text) from work x
      where ${within('x')} and x.priority = ${p} and x.due_key = ${key} and x.id > ${id}${extra}
      order by x.id limit 1),
    (select x.due_key || cast(x.id as text) from work x
      where ${within('x')} and x.priority = ${p} and x.due_key > ${key}${extra}
      order by x.due_key, x.id limit 1))`;
  // The next lower priority that has rows in scope: one seek.
  const below = (p: RawBuilder<unknown>) =>
    sql`(select g.priority from work g where ${within('g')} and g.priority < ${p} order by g.priority desc limit 1)`;
  const top = sql`(select g.priority from work g where ${within('g')} order by g.priority desc limit 1)`;
  const from = sql`cast(${band.from} as text)`;

  const start = after
    ? sql`select cast(${after.priority} as integer), ${nextIn(sql`cast(${after.priority} as integer)`, sql`cast(${after.dueKey} as text)`, sql`cast(${after.id} as integer)`)}, 0`
    : sql`select ${top}, ${nextIn(top, from, sql`0`)}, 0`;
  const found = sql`case when w.s is null then 0 else 1 end`;
  const place = sql.ref('w.s');
  const before = (q: Place) => sql`(${q.p} is null or w.p > ${q.p} or (w.p = ${q.p} and w.s is not null
    and (${keyOf(place)}, ${idOf(place)}) < (${keyOf(q.s)}, ${idOf(q.s)})))`;
  const above = upTo ? sql` and ${before(upTo)}` : sql``;

  return sql`${sql.table(name)}(p, s, n) as (
      ${start}
      union all
      select
        case when w.s is null then ${below(sql`w.p`)} else w.p end,
        case when w.s is null then ${nextIn(below(sql`w.p`), from, sql`0`)} else ${nextIn(sql`w.p`, keyOf(place), idOf(place))} end,
        w.n + ${found}
      from ${sql.table(name)} w
      where w.p is not null and w.n + ${found} < ${count}${above}
    )`;
}
