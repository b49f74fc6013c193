import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.ts';

// Building a query with Kysely and compiling it to SQL costs more than SQLite takes to run most
// of ours: about a fifth of an idempotent snooze's CPU, in a profile of the server. A query
// prepared here is built once for each database and each shape of its values, with a stand-in
// in place of every value; each later call puts its own values where the stand-ins were.
//
// The build function must treat its values as values only: hand them to Kysely, never test,
// combine or format them. A stand-in refuses to be read as text or as a number, so a build that
// does is stopped the first time it runs. What decides a query's shape is which fields its
// values have (a patch's keys): each shape is built once. Lists are refused: an `in` list's
// length would be a shape of its own. The store's plugins (secret-key.ts, commit-group.ts,
// remembered.ts) carry state and leave every query as it is, so a query built on one handle
// serves every handle of the same database.

/** Where a value goes: read from the call's values by its path, or fixed by the build. */
type Slot = { readonly path: readonly string[] } | { readonly fixed: unknown };

interface Built {
  readonly compiled: CompiledQuery;
  readonly slots: readonly Slot[];
}

/** Shapes kept per query and database; past it, a new shape is built for each call. */
const SHAPES_KEPT = 256;

class StandIn {
  constructor(readonly path: readonly string[]) {}
  #refuse(): never {
    throw new TypeError(
      `A prepared query's build read the value at ${this.path.join('.')} itself; it may only pass it to the query.`,
    );
  }
  toString(): string {
    return this.#refuse();
  }
  valueOf(): never {
    return this.#refuse();
  }
  [Symbol.toPrimitive](): never {
    return this.#refuse();
  }
  toJSON(): never {
    return this.#refuse();
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The shape of a call's values: its fields, nested, in their order, and which are absent. */
function shapeOf(values: Record<string, unknown>): string {
  let shape = '';
  for (const key in values) {
    const v = values[key];
    if (Array.isArray(v)) throw new TypeError(`A prepared query takes no lists; ${key} is one.`);
    shape += v === undefined ? `${key}?,` : isPlainObject(v) ? `${key}{${shapeOf(v)}},` : `${key},`;
  }
  return shape;
}

/** The values' twin with a stand-in for every value, and absent fields left absent. */
function standIns(values: Record<string, unknown>, path: readonly string[] = []): Record<string, unknown> {
  const twin: Record<string, unknown> = {};
  for (const key in values) {
    const v = values[key];
    if (v === undefined) twin[key] = undefined;
    else twin[key] = isPlainObject(v) ? standIns(v, [...path, key]) : new StandIn([...path, key]);
  }
  return twin;
}

function valueAt(values: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = values;
  for (const key of path) v = (v as Record<string, unknown>)[key];
  return v;
}

export interface Prepared<V, R> {
  /** The rows the query returns. */
  rows(db: Kysely<Database>, values: V): Promise<R[]>;
  /** The first row the query returns, if any. */
  first(db: Kysely<Database>, values: V): Promise<R | undefined>;
  /** How many rows the statement inserted, changed or deleted. */
  run(db: Kysely<Database>, values: V): Promise<number>;
}

/** A query built once per database and shape of its values (see above). */
export function prepared<V extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R>,
): Prepared<V, R> {
  const byDatabase = new WeakMap<object, Map<string, Built>>();

  const make = (db: Kysely<Database>, values: V): Built => {
    const compiled = build(db, standIns(values) as V).compile();
    const slots = compiled.parameters.map((p): Slot => (p instanceof StandIn ? { path: p.path } : { fixed: p }));
    return { compiled, slots };
  };

  const compiledFor = (db: Kysely<Database>, values: V): CompiledQuery => {
    // One adapter serves a Kysely instance and every handle made from it.
    const database = db.getExecutor().adapter;
    let shapes = byDatabase.get(database);
    if (!shapes) {
      shapes = new Map();
      byDatabase.set(database, shapes);
    }
    const shape = shapeOf(values);
    let built = shapes.get(shape);
    if (!built) {
      built = make(db, values);
      if (shapes.size < SHAPES_KEPT) shapes.set(shape, built);
    }
    const { compiled, slots } = built;
    const parameters = slots.map((s) => ('path' in s ? valueAt(values, s.path) : s.fixed));
    return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
  };

  const execute = (db: Kysely<Database>, values: V) => db.executeQuery<R>(compiledFor(db, values));
  return {
    rows: async (db, values) => (await execute(db, values)).rows as R[],
    first: async (db, values) => (await execute(db, values)).rows[0],
    run: async (db, values) => Number((await execute(db, values)).numAffectedRows ?? 0),
  };
}
