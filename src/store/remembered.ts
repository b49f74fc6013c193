import {
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
} from 'kysely';
import type { Database } from './schema.ts';

// Reads that every request repeats (the key and its desk, the desk's grants) are kept in
// memory for as long as the database is unchanged. "Unchanged" is not a guess or a time
// limit: the store's version changes whenever anything is committed, by this process or any
// other (on SQLite, `PRAGMA data_version` and a count of this connection's own writes). A
// revoked key is therefore refused on its very next request in every process. Where the
// version cannot be had for the whole process (PostgreSQL), only what is asked for at the
// version a request read as it arrived is remembered (Store.fresh, P-speed-5); inside a
// transaction every read goes to the database.

const KEPT = 2_000;
/** Whole answers (a page of the queue, a row with its messages) are larger: fewer are kept. */
const KEPT_LARGE = 100;

type Shelf = Map<string, { version: string; value: unknown }>;

class Remembering implements KyselyPlugin {
  readonly kept: Shelf = new Map();
  readonly large: Shelf = new Map();
  /** The store's version now, for the whole process (or as far as `tables` go); none on PostgreSQL. */
  constructor(readonly version?: (tables?: readonly string[]) => string) {}
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

/**
 * A handle whose repeated reads may be answered from memory while `version()` is unchanged, or
 * without `version` (PostgreSQL), while the version a request read is unchanged.
 */
export function withRemembering<DB>(db: Kysely<DB>, version?: (tables?: readonly string[]) => string): Kysely<DB> {
  return db.withPlugin(new Remembering(version));
}

/**
 * On PostgreSQL, the store's version as of a statement's snapshot, read as requests arrive
 * (Store.fresh): the transactions then in progress and the next to begin. It changes whenever
 * a transaction that writes begins or ends, in this process or any other, and not on reads.
 */
export const SNAPSHOT_VERSION = sql<string>`pg_current_snapshot()::text`;

function freezeDeep<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) freezeDeep(v);
  }
  return value;
}

/**
 * `read()`'s answer, from memory when the same `name` was read at the store's present version.
 * The answer is frozen: it is shared by every caller until the next change. `name` must hold
 * everything else the answer depends on (the desk, the query, the desk's today). `large` files
 * it among the few larger answers kept. `at` is the version a request read (PostgreSQL, where
 * nothing is remembered without it). `tables`, on SQLite, names every table the answer is read
 * from: this process's writes to other tables then leave it standing (other processes' writes
 * never do). Only a read that names them all may give them.
 */
export async function remembered<T>(
  db: Kysely<Database>,
  name: string,
  read: () => Promise<T>,
  opts: { large?: boolean; at?: string; tables?: readonly string[] } = {},
): Promise<T> {
  const plugin = db.isTransaction ? undefined : db.getExecutor().plugins.find((p) => p instanceof Remembering);
  if (!plugin) return read();
  const shelf = opts.large ? plugin.large : plugin.kept;
  // The version is taken before reading, so an answer read across a change is filed under the
  // older version and never served after it.
  const version = opts.at ?? plugin.version?.(opts.tables);
  if (version === undefined) return read();
  const hit = shelf.get(name);
  if (hit && hit.version === version) return hit.value as T;
  const value = freezeDeep(await read());
  // A full shelf gives up its oldest answer, so many desks on one server share it without
  // all starting again at once.
  shelf.delete(name);
  if (shelf.size >= (opts.large ? KEPT_LARGE : KEPT)) shelf.delete(shelf.keys().next().value!);
  shelf.set(name, { version, value });
  return value;
}
