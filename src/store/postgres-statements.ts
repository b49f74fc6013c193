import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { Pool, PoolClient } from 'pg';

// Kysely sends every statement unnamed, so PostgreSQL parses and plans it on every call. A
// named statement is parsed once per connection and then only bound and executed: about half
// the cost of the key's read, the one statement every request sends (P-speed-7).

/** Distinct statement texts given a name; past this, a new text is sent unnamed as before. */
const NAMED_STATEMENTS = 1000;

/**
 * The pool as Kysely's PostgreSQL dialect is given it, naming each statement that has
 * parameters by its text. A statement without parameters (a transaction's begin and commit, a
 * migration's DDL, which may hold several statements) goes as it did, by the simple protocol.
 */
export function namingPool(pool: Pool, limit = NAMED_STATEMENTS): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= limit) return known;
    const name = `desk_${names.size}`;
    names.set(text, name);
    return name;
  };
  const wrapped = new WeakMap<PoolClient, PostgresPoolClient>();
  const wrap = (client: PoolClient): PostgresPoolClient => {
    let w = wrapped.get(client);
    if (!w) {
      w = {
        query: ((text: unknown, values?: readonly unknown[]) => {
          const name = typeof text === 'string' && values && values.length > 0 ? nameOf(text) : undefined;
          if (name) return client.query({ name, text: text as string, values: values as unknown[] });
          return (client.query as (...a: unknown[]) => unknown)(text, values);
        }) as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      wrapped.set(client, w);
    }
    return w;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
