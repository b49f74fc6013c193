import { afterAll, beforeAll } from 'vitest';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { harness, type Harness } from './app.ts';
import { sqliteStore, type TestStore } from './db.ts';
import { addConnection } from './business.ts';
import { makeDesk } from './factories.ts';

type DeskOver = Parameters<typeof makeDesk>[1];
type RailsOver = Partial<{ hours: string; daily_cap: number; paused: number }>;

/**
 * A desk on a SQLite store of its own, with the owner's context, made before the describe's
 * tests and closed after them. Read its fields inside tests, once the hooks have run.
 */
export function ownerDesk(
  over: DeskOver,
  rails: RailsOver = {},
  /** `mailbox`: the desk has a mail connection, so the rows it would write on are in its reach. */
  opts: { mailbox?: boolean } = {},
): { store: TestStore; h: Harness; ctx: DeskContext } {
  const t = {} as { store: TestStore; h: Harness; ctx: DeskContext };
  beforeAll(async () => {
    t.store = await sqliteStore();
    t.h = await harness(t.store);
    const { desk } = await makeDesk(t.store.db, over);
    if (Object.keys(rails).length > 0)
      await t.store.db.updateTable('desks').set(rails).where('id', '=', desk.id).execute();
    if (opts.mailbox) await addConnection(t.store.db, desk.id);
    t.ctx = deskContext(t.h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await t.h?.close();
    await t.store?.close();
  });
  return t;
}
