import { sql, type Kysely } from 'kysely';
import { commitGroupsOf } from './commit-group.ts';
import { prepared } from './prepared.ts';
import { holdsRowLocks, isForeignKeyViolation, type DialectName } from './dialect.ts';
import { deskGone } from '../domain/errors.ts';
import type { Database } from './schema.ts';

// Transactions for the domain's write verbs. Each verb that writes more than one thing runs
// in `atomically`, so a request that fails part-way (or a crash) writes nothing; `lockRow`
// makes two writers on one work row go one after the other. On SQLite the transactions of one
// turn of the event loop commit together (commit-group.ts); either way `atomically` settles
// only once its work is committed.

/** What these helpers need of a verb's context: its database handle, store and desk. */
interface Scope {
  db: Kysely<Database>;
  store: { dialect: DialectName };
  desk: { id: string };
  /** Who asked: a program's key, or the owner or the desk itself. */
  actor?: { type: string };
}

/** Runs `fn` as one transaction with the context bound to it; inside a caller's transaction it simply runs there. */
export async function atomically<C extends Scope, T>(ctx: C, fn: (ctx: C) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  try {
    return await transact(ctx.db, (trx) => fn({ ...ctx, db: trx }));
  } catch (err) {
    // A desk deleted while the write was under way (a send, a run) leaves its rows nothing to
    // point at: that is the desk gone, as the next request with its key is told.
    if (isForeignKeyViolation(err) && !(await deskExists(ctx)))
      throw deskGone(ctx.actor?.type === 'key' ? 'program' : 'owner');
    throw err;
  }
}

async function deskExists(ctx: Scope): Promise<boolean> {
  return (await ctx.db.selectFrom('desks').select('id').where('id', '=', ctx.desk.id).executeTakeFirst()) !== undefined;
}

/** `atomically` for callers that hold only the database handle (the owner's verbs before a desk is chosen). */
export async function atomicallyOn<T>(db: Kysely<Database>, fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return transact(db, fn);
}

/**
 * PostgreSQL ends one of two transactions that wait on each other's rows (40P01: a removal
 * holding the parent row while its cascade waits for a child row a write holds, and the write
 * then waiting for the parent), or one it cannot put in order with others (40001). It undoes
 * that one whole, so it is begun again, reading afresh: the other has committed by then.
 */
const BEGIN_AGAIN = new Set(['40P01', '40001']);
const TRIES = 4;

/** Whether the database undid a transaction that may be begun again as it was. */
export function beginsAgain(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BEGIN_AGAIN.has(code);
}

async function transact<T>(db: Kysely<Database>, fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const groups = commitGroupsOf(db);
  if (groups) return groups.run(db, fn);
  for (let tried = 1; ; tried++) {
    try {
      return await db.transaction().execute(fn);
    } catch (err) {
      if (tried >= TRIES || !beginsAgain(err)) throw err;
    }
  }
}

/**
 * Runs a write whose fields were checked before its transaction began. When it fails because a
 * row it points at was removed in between (another request's delete), `check` runs again and
 * refuses the field as it would have a moment later, rather than the database's error going out.
 */
export async function checkedAgainIfGone<T>(write: () => Promise<T>, check: () => Promise<unknown>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) await check();
    throw err;
  }
}

/** Inside a transaction, holds the desk's row until commit where the database needs telling (dialect.ts). */
export async function lockDesk(ctx: Scope): Promise<void> {
  if (!holdsRowLocks(ctx.store.dialect) || !ctx.db.isTransaction) return;
  await ctx.db.selectFrom('desks').select('id').where('id', '=', ctx.desk.id).forUpdate().execute();
}

/** Inside a transaction, holds the work row until commit where the database needs telling (dialect.ts). */
export async function lockRow(ctx: Scope, workId: number): Promise<void> {
  if (!holdsRowLocks(ctx.store.dialect) || !ctx.db.isTransaction) return;
  await rowLock.rows(ctx.db, { deskId: ctx.desk.id, workId });
}

const rowLock = prepared((db, v: { deskId: string; workId: number }) =>
  db.selectFrom('work').select('id').where('desk_id', '=', v.deskId).where('id', '=', v.workId).forUpdate(),
);

/**
 * Inside a transaction, holds a lock on a name (not a row) until commit, where the database
 * needs telling: two writers about the same thing go one after the other.
 */
export async function lockNamed(ctx: Scope, name: string): Promise<void> {
  if (!holdsRowLocks(ctx.store.dialect) || !ctx.db.isTransaction) return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(ctx.db);
}
