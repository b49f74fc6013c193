import { sql, type Kysely } from 'kysely';
import type { Database, WorkRow } from '../schema.ts';
import { remembered } from '../remembered.ts';
import { prepared } from '../prepared.ts';
import { dialectOf, holdsRowLocks } from '../dialect.ts';
import { OPEN_STATUSES, isOpenStatus } from '../../domain/vocab.ts';

// The stored counts of open rows: desks.open_count, open_class_counts and
// open_arrangement_counts. Only the work repository changes them, through `OpenCounts`, from
// the row as it was and as it became, in the transaction of the write itself; so every kind
// of write (insert, edit, status change, import) moves them by the same rule.

/** What of a work row the counts depend on. */
export type Counted = Pick<WorkRow, 'desk_id' | 'status' | 'class' | 'waiting_on' | 'arrangement_id' | 'due_key'>;
export const COUNTED_COLUMNS = ['desk_id', 'status', 'class', 'waiting_on', 'arrangement_id', 'due_key'] as const;
/** The columns which, when a write changes them, can move a row between counts. */
export const COUNTED_FIELDS = ['class', 'waiting_on', 'arrangement_id', 'due_date'] as const;

const NO_CLASS = '';
/**
 * The due_key of a row with no due date: ten characters like a date, ordering after every date
 * (9999-12-31 included) on both dialects, so that "no date" comes last (D17; migration 014).
 */
export const NO_DATE_KEY = '9999-12-32';

/** Changes to the counts, gathered over one or many rows and then written at once. */
export class OpenCounts {
  private readonly open = new Map<string, number>();
  private readonly byClass = new Map<string, { desk: string; cls: string; out: number; n: number }>();
  private readonly byArrangement = new Map<string, { desk: string; arrangement: number; due: string; n: number }>();

  /** Adds (sign 1) or takes away (sign -1) one row as it stands, if it is open. */
  count(row: Counted, sign: 1 | -1): this {
    if (!isOpenStatus(row.status)) return this;
    this.open.set(row.desk_id, (this.open.get(row.desk_id) ?? 0) + sign);
    const cls = row.class ?? NO_CLASS;
    const out = row.waiting_on === null ? 0 : 1;
    const ck = JSON.stringify([row.desk_id, cls, out]);
    const c = this.byClass.get(ck) ?? { desk: row.desk_id, cls, out, n: 0 };
    c.n += sign;
    this.byClass.set(ck, c);
    if (row.arrangement_id !== null) {
      const ak = JSON.stringify([row.desk_id, row.arrangement_id, row.due_key]);
      const a = this.byArrangement.get(ak) ?? {
        desk: row.desk_id,
        arrangement: row.arrangement_id,
        due: row.due_key,
        n: 0,
      };
      a.n += sign;
      this.byArrangement.set(ak, a);
    }
    return this;
  }

  /** A row that changed: out as it was, in as it is. */
  move(before: Counted, after: Counted): this {
    return this.count(before, -1).count(after, 1);
  }

  async write(db: Kysely<Database>): Promise<void> {
    const classes = [...this.byClass].filter(([, c]) => c.n !== 0).sort(([a], [b]) => a.localeCompare(b));
    const arrangements = [...this.byArrangement].filter(([, a]) => a.n !== 0).sort(([a], [b]) => a.localeCompare(b));
    const desks = new Set([...classes.map(([, c]) => c.desk), ...arrangements.map(([, a]) => a.desk)]);
    // The desk's row first, even when its open count stays, where writers run side by side
    // (PostgreSQL): that row's lock makes writers of one desk's counts take their turns, so
    // they never wait on each other in a circle. SQLite runs one writer at a time, and there a
    // row left as it was is not written, so what is remembered of the desk stands.
    const locks = holdsRowLocks(dialectOf(db));
    for (const desk of [...desks].sort()) {
      if (!locks && (this.open.get(desk) ?? 0) === 0) continue;
      await addToDesk.run(db, { desk, n: this.open.get(desk) ?? 0 });
    }
    for (const [, c] of classes) await addToClass.run(db, { desk: c.desk, cls: c.cls, out: c.out, n: c.n });
    for (const [, a] of arrangements) {
      const at = { desk: a.desk, arrangement: a.arrangement, due: a.due };
      await addToArrangement.run(db, { ...at, n: a.n });
      // An emptied date is dropped, so the entries never outnumber the dates with open work.
      if (a.n < 0) await dropEmptied.run(db, at);
    }
  }
}

const addToDesk = prepared((db, v: { desk: string; n: number }) =>
  db
    .updateTable('desks')
    .set({ open_count: sql<number>`open_count + ${v.n}` })
    .where('id', '=', v.desk),
);

const addToClass = prepared((db, v: { desk: string; cls: string; out: number; n: number }) =>
  db
    .insertInto('open_class_counts')
    .values({ desk_id: v.desk, class: v.cls, out: v.out, n: v.n })
    .onConflict((oc) =>
      oc.columns(['desk_id', 'class', 'out']).doUpdateSet({ n: sql<number>`open_class_counts.n + ${v.n}` }),
    ),
);

type ArrangementDate = { desk: string; arrangement: number; due: string };

const addToArrangement = prepared((db, v: ArrangementDate & { n: number }) =>
  db
    .insertInto('open_arrangement_counts')
    .values({ desk_id: v.desk, arrangement_id: v.arrangement, due_key: v.due, n: v.n })
    .onConflict((oc) =>
      oc
        .columns(['desk_id', 'arrangement_id', 'due_key'])
        .doUpdateSet({ n: sql<number>`open_arrangement_counts.n + ${v.n}` }),
    ),
);

const dropEmptied = prepared((db, v: ArrangementDate) =>
  db
    .deleteFrom('open_arrangement_counts')
    .where('desk_id', '=', v.desk)
    .where('arrangement_id', '=', v.arrangement)
    .where('due_key', '=', v.due)
    .where('n', '=', 0),
);

/** Open rows of the desk by class (null for none) and by whether they are out with somebody. */
export async function openByClass(db: Kysely<Database>, deskId: string) {
  return remembered(db, `by class ${deskId}`, () => readByClass(db, deskId));
}

async function readByClass(db: Kysely<Database>, deskId: string) {
  const rows = await db
    .selectFrom('open_class_counts')
    .select(['class', 'out', 'n'])
    .where('desk_id', '=', deskId)
    .where('n', '<>', 0)
    .execute();
  return rows.map((r) => ({ class: r.class === NO_CLASS ? null : r.class, out: Number(r.out), n: Number(r.n) }));
}

/** Open rows of the desk out with somebody (/me's waiting). */
export async function openOutWith(db: Kysely<Database>, deskId: string): Promise<number> {
  return remembered(db, `out with ${deskId}`, () => readOutWith(db, deskId));
}

async function readOutWith(db: Kysely<Database>, deskId: string): Promise<number> {
  const r = await db
    .selectFrom('open_class_counts')
    .select((eb) => eb.fn.sum<number>('n').as('n'))
    .where('desk_id', '=', deskId)
    .where('out', '=', 1)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Per arrangement with open rows: how many, how many are due before `today`, the earliest due date. */
export async function openByArrangement(db: Kysely<Database>, deskId: string, today: string) {
  return remembered(db, `by arrangement ${deskId} ${today}`, () => readByArrangement(db, deskId, today));
}

async function readByArrangement(db: Kysely<Database>, deskId: string, today: string) {
  const rows = await db
    .selectFrom('open_arrangement_counts')
    .select((eb) => [
      'arrangement_id',
      eb.fn.sum<number>('n').as('open_work'),
      eb.fn.sum<number>(eb.case().when('due_key', '<', today).then(eb.ref('n')).else(0).end()).as('overdue_work'),
      eb.fn.min<string>('due_key').as('first_due'),
    ])
    .where('desk_id', '=', deskId)
    .groupBy('arrangement_id')
    .execute();
  return rows.map((r) => ({
    arrangement_id: r.arrangement_id,
    open_work: Number(r.open_work),
    overdue_work: Number(r.overdue_work ?? 0),
    next_due: r.first_due === NO_DATE_KEY ? null : r.first_due,
  }));
}

/** The same two answers counted from the rows themselves: the tests' cross-check and a repair's source. */
export async function recountByClass(db: Kysely<Database>, deskId: string) {
  const out = sql<number>`case when waiting_on is null then 0 else 1 end`;
  const rows = await db
    .selectFrom('work')
    .select((eb) => ['class', out.as('out'), eb.fn.countAll<number>().as('n')])
    .where('desk_id', '=', deskId)
    .where('status', 'in', [...OPEN_STATUSES])
    .groupBy(['class', out])
    .execute();
  return rows.map((r) => ({ class: r.class, out: Number(r.out), n: Number(r.n) }));
}

export async function recountByArrangement(db: Kysely<Database>, deskId: string, today: string) {
  const rows = await db
    .selectFrom('work')
    .select((eb) => [
      'arrangement_id',
      eb.fn.countAll<number>().as('open_work'),
      eb.fn.sum<number>(eb.case().when('due_key', '<', today).then(1).else(0).end()).as('overdue_work'),
      eb.fn.min<string>('due_key').as('first_due'),
    ])
    .where('desk_id', '=', deskId)
    .where('status', 'in', [...OPEN_STATUSES])
    .where('arrangement_id', 'is not', null)
    .groupBy('arrangement_id')
    .execute();
  return rows.map((r) => ({
    arrangement_id: r.arrangement_id!,
    open_work: Number(r.open_work),
    overdue_work: Number(r.overdue_work ?? 0),
    next_due: r.first_due === NO_DATE_KEY ? null : r.first_due,
  }));
}
