import type {
  ControlledTransaction,
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
} from 'kysely';

// On SQLite one connection writes at a time, and a commit costs more than most of the work
// before it: every page the transaction touched goes to the log, two system calls a page. The
// transactions begun in one turn of the event loop therefore share one (P-speed-9). Each runs
// in a savepoint of its own, one after another, so a transaction that fails is rolled back
// alone and its caller hears so at once. The others are committed together when the turn's
// work is done, and their callers hear back only then: nothing is reported done before the
// commit that keeps it. A page that several of them touch (the tail of the event log, the
// idempotency table, the desk's counts) is written once for all of them.

type AnyDb = Kysely<any>;

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The transactions of one turn: one database transaction, committed once. */
class Group {
  readonly trx: Promise<ControlledTransaction<any>>;
  /** Members run one after another: each waits for the one before it. */
  tail: Promise<void> = Promise.resolve();
  readonly done: Waiter[] = [];
  /** Why the shared transaction can no longer be committed, once that is so. */
  broken: { err: unknown } | null = null;
  constructor(readonly origin: AnyDb) {
    this.trx = origin.startTransaction().execute();
    // A begin that fails is reported to each member as it runs; it must not go unheard here.
    this.trx.catch(() => undefined);
  }
}

const SAVEPOINT = 'member';

/** Carried by a SQLite handle (as a Kysely plugin, changing nothing it runs): its open group. */
export class CommitGroups implements KyselyPlugin {
  #open: Group | null = null;
  /** Groups committed and members kept by them, for the tests and the benchmark. */
  readonly counts = { commits: 0, members: 0 };

  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }

  /**
   * Runs `fn` as one transaction of this turn's group, and settles once the group has
   * committed (or at once, when `fn` fails). A handle other than the one the group was begun
   * on has other plugins, so it gets a transaction of its own, which waits for the group.
   */
  run<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    let group = this.#open;
    if (group && group.origin !== db) return db.transaction().execute(fn);
    if (!group) {
      const opened = new Group(db);
      this.#open = group = opened;
      setImmediate(() => void this.#close(opened));
    }
    const turn = group.tail.then(() => this.#member(group, db, fn));
    group.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn.then((next) => next());
  }

  /** Runs one member; gives what its caller is to wait for. */
  async #member<DB, T>(group: Group, db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<() => Promise<T>> {
    // A member whose turn comes after the group broke has done nothing yet: it joins the next.
    if (group.broken) return () => this.run(db, fn);
    const trx = (await group.trx) as ControlledTransaction<DB>;
    const inside = await trx.savepoint(SAVEPOINT).execute();
    let value: T;
    try {
      value = await fn(inside as unknown as Kysely<DB>);
      await inside.releaseSavepoint(SAVEPOINT).execute();
    } catch (err) {
      try {
        await inside.rollbackToSavepoint(SAVEPOINT).execute();
        await inside.releaseSavepoint(SAVEPOINT).execute();
      } catch (cause) {
        // Some failures (a full disk, an I/O error) end the whole transaction in SQLite: the
        // members already run fail with it, and the ones still to run begin a new group.
        group.broken = { err: cause };
        if (this.#open === group) this.#open = null;
      }
      return () => Promise.reject(err);
    }
    return () => new Promise<T>((resolve, reject) => group.done.push({ resolve: () => resolve(value), reject }));
  }

  async #close(group: Group): Promise<void> {
    if (this.#open === group) this.#open = null;
    await group.tail;
    let trx: ControlledTransaction<any>;
    try {
      trx = await group.trx;
    } catch {
      return; // nothing began, and every member was told so
    }
    try {
      if (group.broken) throw group.broken.err;
      await trx.commit().execute();
      this.counts.commits++;
      this.counts.members += group.done.length;
      for (const w of group.done) w.resolve();
    } catch (err) {
      if (!trx.isRolledBack)
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
      for (const w of group.done) w.reject(err);
    }
  }
}

export function withCommitGroups<DB>(db: Kysely<DB>): Kysely<DB> {
  return db.withPlugin(new CommitGroups());
}

export function commitGroupsOf(db: AnyDb): CommitGroups | undefined {
  return db.getExecutor().plugins.find((p): p is CommitGroups => p instanceof CommitGroups);
}
