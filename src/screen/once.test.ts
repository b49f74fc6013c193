import { refuse } from '../../test/helpers/refuse.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../test/helpers/db.ts';
import { harness, type Harness } from '../../test/helpers/app.ts';
import { makeDesk } from '../../test/helpers/factories.ts';
import { deskContext } from '../domain/context.ts';
import { once } from './once.ts';

// A form's work done once per key, and what happens when its answer cannot be kept.

describe.each(DIALECTS)('a screen form done once ($name)', ({ name, open }) => {
  let store: TestStore;
  let h: Harness;
  let ctx: ReturnType<typeof deskContext>;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const d = await makeDesk(store.db);
    ctx = deskContext(h.deps, d.desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  /** Makes the database refuse to store any answer under a key. */
  const refuseAnswers = () => refuse(store.db, name, { name: 'refuse_answer', table: 'idempotency', on: 'UPDATE' });

  it('does the work once per key and replays its answer', async () => {
    let runs = 0;
    const first = await once(ctx, 'form-1', async () => ++runs);
    const again = await once(ctx, 'form-1', async () => ++runs);
    expect(first).toEqual({ ok: true, value: 1 });
    expect(again).toEqual({ ok: true, value: 1 });
    expect(runs).toBe(1);
  });

  it('says the work was done when its answer cannot be kept, and lets the key go', async () => {
    let runs = 0;
    const allow = await refuseAnswers();
    let first: Awaited<ReturnType<typeof once<number>>>;
    try {
      first = await once(ctx, 'form-2', async () => ++runs);
    } finally {
      await allow();
    }
    expect(first).toEqual({ ok: true, value: 1 });
    const held = await store.db.selectFrom('idempotency').select('key').where('key', 'like', '%form-2').execute();
    expect(held).toEqual([]);
    // The key is free: a resubmit does the work again at once rather than waiting out a lease.
    expect(await once(ctx, 'form-2', async () => ++runs)).toEqual({ ok: true, value: 2 });
  });
});
