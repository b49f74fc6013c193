import type { Kysely } from 'kysely';
import { commitGroupsOf } from './commit-group.ts';
import { prepared } from './prepared.ts';
import { holdsRowLocks, type DialectName } from './dialect.ts';
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
}

/** Runs `fn` as one transaction with the context bound to it; inside a caller's transaction it simply runs there. */
export async function atomically<C extends Scope, T>(ctx: C, fn: (ctx: C) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  return transact(ctx.db, (trx) => fn({ ...ctx, db: trx }));
}

/** `atomically` for callers that hold only the database handle (the owner's verbs before a desk is chosen). */
export async function atomicallyOn<T>(db: Kysely<Database>, fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return transact(db, fn);
}

function transact<T>(db: Kysely<Database>, fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const groups = commitGroupsOf(db);
  return groups ? groups.run(db, fn) : db.transaction().execute(fn);
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
