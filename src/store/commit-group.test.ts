import SQLite from 'better-sqlite3';
import { type Generated, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../../test/helpers/db.ts';
import { commitGroupsOf, type CommitGroups } from './commit-group.ts';
import type { Database } from './schema.ts';
import { atomicallyOn } from './tx.ts';

// The transactions begun in one turn share one commit; each still stands or falls alone, and
// none is reported done before the commit that keeps it.

type Db = Kysely<Database>;
const raw = (db: Db) => db as unknown as Kysely<{ t: { id: Generated<number>; v: string } }>;

let store: TestStore;
let groups: CommitGroups;
/** Another connection to the same file, as another process would have. */
let other: SQLite.Database;

const put = (db: Db, v: string) => raw(db).insertInto('t').values({ v }).execute();
const seenElsewhere = () =>
  (other.prepare('select v from t order by id').all() as Array<{ v: string }>).map((r) => r.v);

beforeAll(async () => {
  store = await sqliteStore();
  groups = commitGroupsOf(store.db)!;
  await sql`create table t (id integer primary key, v text not null)`.execute(store.db);
  await sql`create table child (id integer primary key, parent integer not null references t (id))`.execute(store.db);
  other = new SQLite(store.target, { readonly: true });
});

afterAll(async () => {
  other.close();
  await store.close();
});

beforeEach(async () => {
  await sql`delete from child`.execute(store.db);
  await sql`delete from t`.execute(store.db);
});

describe('commit groups (SQLite)', () => {
  it('commits the transactions begun in one turn once, together', async () => {
    const before = { ...groups.counts };
    const values = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(values.map((v) => atomicallyOn(store.db, (trx) => put(trx, v))));
    expect(groups.counts.commits - before.commits).toBe(1);
    expect(groups.counts.members - before.members).toBe(values.length);
    expect(seenElsewhere()).toEqual(values);
  });

  it('settles each transaction only once another connection can see what it wrote', async () => {
    const seenWhenSettled: string[][] = [];
    await Promise.all(
      ['x', 'y', 'z'].map((v) =>
        atomicallyOn(store.db, (trx) => put(trx, v)).then(() => seenWhenSettled.push(seenElsewhere())),
      ),
    );
    for (const seen of seenWhenSettled) expect(seen).toEqual(['x', 'y', 'z']);
  });

  it('rolls a failing transaction back alone, and tells its caller at once', async () => {
    const outcomes = await Promise.allSettled([
      atomicallyOn(store.db, (trx) => put(trx, 'kept 1')),
      atomicallyOn(store.db, async (trx) => {
        await put(trx, 'undone');
        throw new Error('refused');
      }),
      atomicallyOn(store.db, (trx) => put(trx, 'kept 2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('refused');
    expect(seenElsewhere()).toEqual(['kept 1', 'kept 2']);
  });

  it('lets a member read what an earlier member of its group wrote', async () => {
    const [, count] = await Promise.all([
      atomicallyOn(store.db, (trx) => put(trx, 'first')),
      atomicallyOn(store.db, async (trx) => {
        const r = await raw(trx).selectFrom('t').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
        return r.n;
      }),
    ]);
    expect(count).toBe(1);
  });

  it('reports a commit that fails to every member of the group, and keeps none of them', async () => {
    const outcomes = await Promise.allSettled([
      atomicallyOn(store.db, (trx) => put(trx, 'lost 1')),
      atomicallyOn(store.db, async (trx) => {
        // Checked only at commit: the commit itself is refused.
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await sql`insert into child (parent) values (999)`.execute(trx);
      }),
      atomicallyOn(store.db, (trx) => put(trx, 'lost 2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(seenElsewhere()).toEqual([]);
    // The connection is free again: the next transaction commits.
    await atomicallyOn(store.db, (trx) => put(trx, 'after'));
    expect(seenElsewhere()).toEqual(['after']);
  });

  it('fails the members already run when the shared transaction ends under them, and runs the rest afresh', async () => {
    const outcomes = await Promise.allSettled([
      atomicallyOn(store.db, (trx) => put(trx, 'before the break')),
      atomicallyOn(store.db, async (trx) => {
        await sql`rollback`.execute(trx);
        throw new Error('ended the transaction');
      }),
      atomicallyOn(store.db, (trx) => put(trx, 'after the break')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('ended the transaction');
    expect(seenElsewhere()).toEqual(['after the break']);
  });

  it('gives a handle with other plugins a transaction of its own', async () => {
    const another = store.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => args.result,
    });
    const before = { ...groups.counts };
    await Promise.all([
      atomicallyOn(store.db, (trx) => put(trx, 'grouped')),
      atomicallyOn(another, (trx) => put(trx, 'alone')),
    ]);
    expect(groups.counts.commits - before.commits).toBe(1);
    expect(groups.counts.members - before.members).toBe(1);
    expect(seenElsewhere().sort()).toEqual(['alone', 'grouped']);
  });

  it('runs a transaction begun in a later turn in a group of its own', async () => {
    const before = { ...groups.counts };
    await atomicallyOn(store.db, (trx) => put(trx, 'one'));
    await atomicallyOn(store.db, (trx) => put(trx, 'two'));
    expect(groups.counts.commits - before.commits).toBe(2);
    expect(seenElsewhere()).toEqual(['one', 'two']);
  });
});
