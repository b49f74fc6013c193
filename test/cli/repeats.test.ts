import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { desk, type CliRun } from '../helpers/cli.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import type { DeskRow } from '../../src/store/schema.ts';

// `desk work` actions typed again once what they ask already holds: one rule for all of them
// (P-cli-28). The repeat changes nothing, writes nothing, says so and exits 0, as complete on a
// done row does; what cannot be met (complete on a closed row, close on a done one) exits 1.

describe.each(DIALECTS)('a `desk work` action repeated ($name)', ({ open }) => {
  let store: TestStore;
  let bakery: DeskRow;

  beforeAll(async () => {
    store = await open();
    bakery = (await makeDesk(store.db, { slug: 'repeat-bakery' })).desk;
  });
  afterAll(async () => {
    await store.close();
  });

  /** How many lines the desk's history and log hold: a repeat adds none. */
  async function writes(): Promise<{ timeline: number; events: number }> {
    const count = async (table: 'timeline' | 'events') =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('desk_id', '=', bakery.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { timeline: await count('timeline'), events: await count('events') };
  }

  /** The first line a command printed, with its exit and anything on stderr. */
  const said = (r: CliRun) => ({ code: r.code, err: r.err, first: r.out.split('\n')[0] });

  const work = (...args: string[]) => desk(store.target, 'work', ...args);

  it('close on a closed row exits 0 and says nothing was changed; --json says changed: false', async () => {
    const { id } = await makeWork(store.db, bakery.id, { title: 'Renew the licence' });
    const first = await work('close', String(id), '--note', 'Renewed by phone.', '--json');
    expect(first.json()).toMatchObject({ id, status: 'closed', changed: true, message: `Closed #${id}.` });
    const before = await writes();
    expect(said(await work('close', String(id)))).toEqual({
      code: 0,
      err: '',
      first: `#${id} is already closed; nothing was changed.`,
    });
    // The same close again, note and all, is the same repeat.
    expect(said(await work('close', String(id), '--note', 'Renewed by phone.'))).toMatchObject({ code: 0 });
    const json = await work('close', String(id), '--json');
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      id,
      status: 'closed',
      detail: 'Renewed by phone.',
      changed: false,
      message: `#${id} is already closed; nothing was changed.`,
    });
    expect(await writes()).toEqual(before);
    // A note the closed row would not keep cannot be met.
    expect(said(await work('close', String(id), '--note', 'Paid in cash.'))).toEqual({
      code: 1,
      err: `desk: Work item ${id} is already closed, so the note was not added.\n`,
      first: '',
    });
    // Closed and done are two ends: each refuses the other's action, as before.
    const done = await makeWork(store.db, bakery.id, { title: 'Paid the mill', status: 'done' });
    expect(said(await work('close', String(done.id)))).toEqual({
      code: 1,
      err: `desk: Work item ${done.id} is already done.\n`,
      first: '',
    });
    expect(said(await work('complete', String(id)))).toEqual({
      code: 1,
      err: '',
      first: `#${id} is closed. This row is already closed; nothing was changed.`,
    });
    expect(said(await work('complete', String(done.id)))).toEqual({
      code: 0,
      err: '',
      first: `#${done.id} is done. This row is already done; nothing was changed.`,
    });
    expect(await writes()).toEqual(before);
  });

  it('reopen on a row already in the queue exits 0 and says nothing was changed', async () => {
    const { id } = await makeWork(store.db, bakery.id, { title: 'Order flour' });
    const waiting = await makeWork(store.db, bakery.id, { title: 'Quote', status: 'waiting', waiting_on: 'Mill' });
    const before = await writes();
    expect(said(await work('reopen', String(id)))).toEqual({
      code: 0,
      err: '',
      first: `#${id} is already open; nothing was changed.`,
    });
    expect(said(await work('reopen', String(waiting.id)))).toEqual({
      code: 0,
      err: '',
      first: `#${waiting.id} is waiting, not done or closed; nothing was changed.`,
    });
    expect((await work('reopen', String(id), '--json')).json()).toMatchObject({ id, status: 'open', changed: false });
    expect(await writes()).toEqual(before);
  });

  it('assign to whoever has the row, or --clear on a row nobody has, exits 0 and writes nothing', async () => {
    const { id } = await makeWork(store.db, bakery.id, { title: 'Fix the oven door' });
    expect(said(await work('assign', String(id), '--to', 'Sam'))).toMatchObject({
      code: 0,
      first: `Assigned #${id} to Sam.`,
    });
    const before = await writes();
    expect(said(await work('assign', String(id), '--to', 'Sam'))).toEqual({
      code: 0,
      err: '',
      first: `#${id} is already with Sam; nothing was changed.`,
    });
    expect((await work('assign', String(id), '--to', 'Sam', '--json')).json()).toMatchObject({
      id,
      changed: false,
      message: `#${id} is already with Sam; nothing was changed.`,
    });
    expect(await writes()).toEqual(before);
    expect((await work('assign', String(id), '--clear')).code).toBe(0);
    const back = await writes();
    expect(said(await work('assign', String(id), '--clear'))).toEqual({
      code: 0,
      err: '',
      first: `#${id} is already given to nobody; nothing was changed.`,
    });
    expect((await work('assign', String(id), '--to', 'owner')).code).toBe(0);
    expect(said(await work('assign', String(id), '--to', 'owner'))).toMatchObject({
      code: 0,
      first: `#${id} is already yours; nothing was changed.`,
    });
    expect((await writes()).timeline).toBe(back.timeline + 1);
  });

  it('edit to the values the row holds exits 0 and writes nothing', async () => {
    const { id } = await makeWork(store.db, bakery.id, { title: 'Service the van' });
    expect(said(await work('edit', String(id), '--priority', '90'))).toMatchObject({
      code: 0,
      first: `Updated #${id}.`,
    });
    const before = await writes();
    expect(said(await work('edit', String(id), '--priority', '90'))).toEqual({
      code: 0,
      err: '',
      first: `#${id} already has those values; nothing was changed.`,
    });
    expect(said(await work('edit', String(id), '--clear-error'))).toEqual({
      code: 0,
      err: '',
      first: `#${id} has no fault to clear; nothing was changed.`,
    });
    expect((await work('edit', String(id), '--priority', '90', '--json')).json()).toMatchObject({
      id,
      priority: 90,
      changed: false,
    });
    expect(await writes()).toEqual(before);
  });

  it('draft on a row that has its message exits 0 and says nothing was changed; --json is the route’s', async () => {
    const { id } = await makeWork(store.db, bakery.id, {
      title: 'Book the inspection',
      contact_email: 'bookings@firewise.test',
    });
    expect(said(await work('draft', String(id)))).toMatchObject({
      code: 0,
      first: `Drafted for #${id}, to bookings@firewise.test (email):`,
    });
    const before = await writes();
    expect(said(await work('draft', String(id)))).toEqual({
      code: 0,
      err: '',
      first: `#${id} already has a prepared message, to bookings@firewise.test (email); nothing was changed:`,
    });
    expect((await work('draft', String(id), '--json')).json()).toMatchObject({
      drafted: true,
      to: 'bookings@firewise.test',
    });
    expect(await writes()).toEqual(before);
  });
});
