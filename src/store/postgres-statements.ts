import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { Pool, PoolClient } from 'pg';

// Kysely sends every statement unnamed, so PostgreSQL parses and plans it on every call. A
// named statement is parsed once per connection and then only bound and executed: about half
// the cost of the key's read, the one statement every request sends (P-speed-7).
//
// A server that stops answering (frozen, or a network path that swallows packets) keeps the
// socket open, so a statement would wait on it for ever, and the request with it. Each
// statement has a deadline instead: past it, the connection's socket is destroyed, the
// statement fails, and the pool drops the connection rather than lend it out again (P-ops-1).
// Dropping the socket does not stop the statement on the server, which notices a client gone
// only when it writes the answer; so each connection also carries the deadline as the
// server's own statement_timeout, a little later, and a slow statement nobody waits for ends.

/** Distinct statement texts given a name; past this, a new text is sent unnamed as before. */
const NAMED_STATEMENTS = 1000;

/** A request-serving statement that waits longer than this on a healthy database is already broken. */
export const STATEMENT_TIMEOUT_MS = 30_000;

/** How much later than the deadline the server ends a statement: the deadline speaks first. */
export const SERVER_GRACE_MS = 1000;

/** The database did not answer in time: a statement past its deadline, or a connection not made. */
export class DatabaseSilent extends Error {
  // What a socket that timed out carries, so the store's troubles (trouble.ts) and the check
  // made on opening take it as a database that cannot be reached.
  readonly code = 'ETIMEDOUT';
}

/**
 * How long, in milliseconds, a statement may go unanswered; 0 for no limit. Read as each
 * statement is sent, so the store can keep it off while it migrates.
 */
export interface Deadline {
  ms: number;
}

export interface PoolOptions {
  limit?: number;
  deadline?: Deadline;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * The pool as Kysely's PostgreSQL dialect is given it, naming each statement that has
 * parameters by its text. A statement without parameters (a transaction's begin and commit, a
 * migration's DDL, which may hold several statements) goes as it did, by the simple protocol.
 * Each statement waits for its answer no longer than the deadline.
 */
export function namingPool(pool: Pool, opts: PoolOptions = {}): PostgresPool {
  const limit = opts.limit ?? NAMED_STATEMENTS;
  const deadline = opts.deadline ?? { ms: 0 };
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= limit) return known;
    const name = `desk_${names.size}`;
    names.set(text, name);
    return name;
  };
  const send = (client: PoolClient, text: unknown, values?: readonly unknown[]): Promise<unknown> => {
    const name = typeof text === 'string' && values && values.length > 0 ? nameOf(text) : undefined;
    if (name) return client.query({ name, text: text as string, values: values as unknown[] });
    return (client.query as (...a: unknown[]) => Promise<unknown>)(text, values);
  };
  const wrapped = new WeakMap<PoolClient, PostgresPoolClient>();
  const wrap = (client: PoolClient): PostgresPoolClient => {
    let w = wrapped.get(client);
    if (w) return w;
    // Once set, the connection is dead: a transaction's rollback after it fails at once, and
    // release tells the pool to drop the connection.
    let silent: DatabaseSilent | null = null;
    w = {
      query: ((text: unknown, values?: readonly unknown[]) => {
        if (silent) return Promise.reject(silent);
        const ms = deadline.ms;
        const answer = send(client, text, values);
        if (!ms) return answer;
        return new Promise<unknown>((resolve, reject) => {
          const timer = setTimeout(() => {
            silent = new DatabaseSilent(`The database did not answer within ${seconds(ms)}`);
            client.connection.stream.destroy();
            reject(silent);
          }, ms);
          answer.then(
            (r) => {
              clearTimeout(timer);
              resolve(r);
            },
            (err: unknown) => {
              clearTimeout(timer);
              reject(err);
            },
          );
        });
      }) as PostgresPoolClient['query'],
      release: () => client.release(silent ?? undefined),
    };
    wrapped.set(client, w);
    return w;
  };
  // The server's own limit each connection was given, set on its first lending after the store
  // opened (the deadline is off while it migrates), by a plain SET outside any transaction.
  const serverLimits = new WeakMap<PoolClient, number>();
  const connectLimit = pool.options.connectionTimeoutMillis ?? 0;
  return {
    connect: async () => {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw connectTimedOut(err, connectLimit) ?? err;
      }
      const w = wrap(client);
      const ms = deadline.ms;
      if ((serverLimits.get(client) ?? 0) !== ms) {
        try {
          await w.query(`set statement_timeout = ${ms ? ms + SERVER_GRACE_MS : 0}`, []);
        } catch (err) {
          client.release(true);
          throw err;
        }
        serverLimits.set(client, ms);
      }
      return w;
    },
    end: () => pool.end(),
  };
}

/** pg-pool says its connection timeout in words only, one for each of its two waits. */
function connectTimedOut(err: unknown, ms: number): DatabaseSilent | null {
  const message = (err as { message?: unknown } | null)?.message;
  if (message === 'Connection terminated due to connection timeout')
    return new DatabaseSilent(`The database did not answer a new connection within ${seconds(ms)}`, { cause: err });
  if (message === 'timeout exceeded when trying to connect')
    return new DatabaseSilent(`No connection to the database came free within ${seconds(ms)}`, { cause: err });
  return null;
}
