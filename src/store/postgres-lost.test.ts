import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { PG_URL, postgresStore, reopenStore, type TestStore } from '../../test/helpers/db.ts';
import { tcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.ts';
import type { Store } from './db.ts';

// A PostgreSQL server that goes away under a statement: the statement fails, the process
// carries on, and the next statement after the server is back is answered.
describe.skipIf(!PG_URL)('a PostgreSQL connection lost mid-statement', () => {
  let made: TestStore | undefined;
  let proxy: TcpProxy | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    await proxy?.close();
    await made?.close();
  });

  it('fails that statement only, and the store answers again once the server is back', async () => {
    made = await postgresStore();
    proxy = await tcpProxy(made.target);
    store = await reopenStore(proxy.url);
    const p = proxy;
    // A socket error nobody listens for is thrown out of the event loop and ends the server.
    const uncaught: unknown[] = [];
    const note = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', note);
    const slow = sql`select pg_sleep(30)`.execute(store.db);
    await p.sent('pg_sleep');
    p.cut();
    await expect(slow).rejects.toThrow();
    p.restore();
    const again = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    expect(again.rows).toEqual([{ one: 1 }]);
    process.off('uncaughtException', note);
    expect(uncaught).toEqual([]);
  });
});
