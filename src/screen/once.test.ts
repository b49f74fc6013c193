import { refuse } from '../../test/helpers/refuse.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../test/helpers/db.ts';
import { harness, type Harness } from '../../test/helpers/app.ts';
import { makeDesk } from '../../test/helpers/factories.ts';
import type { FastifyRequest } from 'fastify';
import { deskContext } from '../domain/context.ts';
import { once } from './once.ts';

/** A form's post as the route sees it: its address and its fields. */
const post = (url: string, body: Record<string, string>) => ({ url, body }) as unknown as FastifyRequest;

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
    const snooze = post('/work/9/snooze?from=list', { idempotency_key: 'form-1', days: '5' });
    const first = await once(ctx, snooze, async () => ++runs);
    const again = await once(ctx, post('/work/9/snooze', { idempotency_key: 'form-1', days: '5' }), async () => ++runs);
    expect(first).toEqual({ ok: true, value: 1 });
    expect(again).toEqual({ ok: true, value: 1 });
    expect(runs).toBe(1);
  });

  it("does not replay one form's answer to another form, or to the same form on another row, sent its key", async () => {
    let runs = 0;
    const key = { idempotency_key: 'form-3' };
    expect(await once(ctx, post('/work/9/snooze', key), async () => ++runs)).toEqual({ ok: true, value: 1 });
    expect(await once(ctx, post('/work/7/snooze', key), async () => ++runs)).toEqual({ ok: true, value: 2 });
    expect(await once(ctx, post('/chat', key), async () => ++runs)).toEqual({ ok: true, value: 3 });
    // A form that names its row in the body rather than the address.
    const inbox = (id: string) => post('/connections/mailbox/check-inbox', { ...key, id });
    expect(await once(ctx, inbox('1'), async () => ++runs)).toEqual({ ok: true, value: 4 });
    expect(await once(ctx, inbox('2'), async () => ++runs)).toEqual({ ok: true, value: 5 });
    expect(await once(ctx, inbox('1'), async () => ++runs)).toEqual({ ok: true, value: 4 });
  });

  it('does the work each time when the form carries no key', async () => {
    let runs = 0;
    await once(ctx, post('/chat', { idempotency_key: ' ' }), async () => ++runs);
    await once(ctx, post('/chat', {}), async () => ++runs);
    expect(runs).toBe(2);
  });

  it('says the work was done when its answer cannot be kept, and lets the key go', async () => {
    let runs = 0;
    const allow = await refuseAnswers();
    let first: Awaited<ReturnType<typeof once<number>>>;
    try {
      first = await once(ctx, post('/work/1/snooze', { idempotency_key: 'form-2' }), async () => ++runs);
    } finally {
      await allow();
    }
    expect(first).toEqual({ ok: true, value: 1 });
    const held = await store.db.selectFrom('idempotency').select('key').where('key', 'like', '%form-2').execute();
    expect(held).toEqual([]);
    // The key is free: a resubmit does the work again at once rather than waiting out a lease.
    expect(await once(ctx, post('/work/1/snooze', { idempotency_key: 'form-2' }), async () => ++runs)).toEqual({
      ok: true,
      value: 2,
    });
  });
});
