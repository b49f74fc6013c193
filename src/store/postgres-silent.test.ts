import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PG_URL, postgresStore, reopenStore, type TestStore } from '../../test/helpers/db.ts';
import { tcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.ts';
import type { Store } from './db.ts';
import { StoreUnusable } from './location.ts';
import { SERVER_GRACE_MS } from './postgres-statements.ts';
import { storeTrouble, UNREACHABLE_MESSAGE } from './trouble.ts';

// A PostgreSQL server that stops answering without closing anything (frozen, or a network path
// that swallows packets): a statement waits no longer than its deadline, nor a new connection
// longer than its time-out, and the store answers again once the server does. The deadlines
// here are short so the tests need not wait 30 s.

const LIMIT_MS = 300;
/** Time past a limit for the failure to come through on a busy machine. */
const SLACK_MS = 2000;

async function timed<T>(work: Promise<T>): Promise<{ value?: T; err: unknown; ms: number }> {
  const t0 = performance.now();
  try {
    const value = await work;
    return { value, err: null, ms: performance.now() - t0 };
  } catch (err) {
    return { err, ms: performance.now() - t0 };
  }
}

describe.skipIf(!PG_URL)('a PostgreSQL server that stops answering', () => {
  let made: TestStore | undefined;
  let proxy: TcpProxy | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    proxy?.restore();
    await store?.close();
    await proxy?.close();
    await made?.close();
    store = proxy = made = undefined;
  });

  const through = async () => {
    made = await postgresStore();
    proxy = await tcpProxy(made.target);
    store = await reopenStore(proxy.url, { statementTimeoutMs: LIMIT_MS, connectTimeoutMs: LIMIT_MS });
    return { p: proxy, db: store.db };
  };

  it('fails a statement in flight at its deadline, drops its connection, and answers again once the server does', async () => {
    const { p, db } = await through();
    // A socket error nobody listens for is thrown out of the event loop and ends the server.
    const uncaught: unknown[] = [];
    const note = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', note);
    const held = timed(sql`select pg_sleep(0.05)`.execute(db));
    await p.sent('pg_sleep');
    p.pause();
    const { err, ms } = await held;
    expect((err as Error).message).toBe('The database did not answer within 0.3 s');
    expect(ms).toBeGreaterThanOrEqual(LIMIT_MS - 10);
    expect(ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    expect(storeTrouble(err)).toMatchObject({ kind: 'unreachable', message: UNREACHABLE_MESSAGE });
    // While it stays silent the next statement fails in bounded time too, on a new connection
    // or on another one already held.
    const next = await timed(sql`select 1`.execute(db));
    expect((next.err as Error).message).toMatch(/^The database did not answer (a new connection )?within 0\.3 s$/);
    expect(next.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    p.restore();
    const again = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(again.rows).toEqual([{ one: 1 }]);
    process.off('uncaughtException', note);
    expect(uncaught).toEqual([]);
  });

  it('fails a transaction whose statement goes unanswered, and leaves nothing of it written', async () => {
    const { p, db } = await through();
    await sql`create table t (a int)`.execute(db);
    const tx = timed(
      db.transaction().execute(async (trx) => {
        await sql`insert into t values (1)`.execute(trx);
        await sql`select pg_sleep(0.05)`.execute(trx);
      }),
    );
    await p.sent('pg_sleep');
    p.pause();
    const { err, ms } = await tx;
    expect((err as Error).message).toBe('The database did not answer within 0.3 s');
    expect(ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    p.restore();
    expect((await sql<{ n: number }>`select count(*)::int as n from t`.execute(db)).rows).toEqual([{ n: 0 }]);
  });

  it('ends on the server a slow statement it stopped waiting for, soon after its deadline', async () => {
    made = await postgresStore();
    store = await reopenStore(made.target, { statementTimeoutMs: LIMIT_MS });
    const t0 = performance.now();
    const { err } = await timed(sql`select /* left-behind */ pg_sleep(30)`.execute(store.db));
    expect((err as Error).message).toBe('The database did not answer within 0.3 s');
    const watcher = new pg.Client({ connectionString: made.target });
    await watcher.connect();
    try {
      const running = async () =>
        (
          await watcher.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%left-behind%' and pid <> pg_backend_pid()",
          )
        ).rows[0]!.n;
      // Alone, the server would sleep the full 30 s: it learns the client is gone only on writing.
      while ((await running()) > 0 && performance.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 100));
      expect(await running()).toBe(0);
      expect(performance.now() - t0).toBeLessThan(LIMIT_MS + SERVER_GRACE_MS + SLACK_MS);
    } finally {
      await watcher.end();
    }
  });

  it('takes a statement the server itself cancelled as a database that did not answer', async () => {
    made = await postgresStore();
    const { err } = await timed(
      made.db.transaction().execute(async (trx) => {
        await sql`set local statement_timeout = 50`.execute(trx);
        await sql`select pg_sleep(5)`.execute(trx);
      }),
    );
    expect((err as { code?: string }).code).toBe('57014');
    expect(storeTrouble(err)).toMatchObject({ kind: 'unreachable', message: UNREACHABLE_MESSAGE });
  });

  it('gives up on a new connection the server does not answer, past the connect time-out', async () => {
    made = await postgresStore();
    proxy = await tcpProxy(made.target);
    proxy.pause();
    const { err, ms } = await timed(reopenStore(proxy.url, { connectTimeoutMs: LIMIT_MS }));
    expect(err).toBeInstanceOf(StoreUnusable);
    expect((err as StoreUnusable).unreachable).toBe(true);
    expect((err as Error).message).toMatch(/: The database did not answer a new connection within 0\.3 s$/);
    expect(ms).toBeLessThan(LIMIT_MS + SLACK_MS);
  });

  it('keeps no deadline while the store opens, so a migration that waits long is not cut', async () => {
    made = await postgresStore();
    // The lock Kysely's migrator takes on PostgreSQL: held here, opening waits on it as it
    // would on a long CREATE INDEX.
    const other = new pg.Client({ connectionString: made.target });
    await other.connect();
    try {
      // Emptied, so that opening it migrates: a database already at the latest schema is only
      // read when it opens, and takes no lock.
      await other.query('drop schema public cascade; create schema public');
      await other.query('select pg_advisory_lock(3853314791062309107)');
      const opening = timed(reopenStore(made.target, { statementTimeoutMs: LIMIT_MS }));
      await new Promise((r) => setTimeout(r, 3 * LIMIT_MS));
      await other.query('select pg_advisory_unlock(3853314791062309107)');
      const { value, err, ms } = await opening;
      store = value;
      expect(err).toBeNull();
      expect(ms).toBeGreaterThanOrEqual(3 * LIMIT_MS);
    } finally {
      await other.end();
    }
    // Once open, the deadline holds.
    const slow = await timed(sql`select pg_sleep(1)`.execute(store!.db));
    expect((slow.err as Error).message).toBe('The database did not answer within 0.3 s');
  });
});
