import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.ts';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { assignWork } from '../../src/domain/work/assign.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { closeWork, reopenWork } from '../../src/domain/work/status.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { harness, TEST_NOW, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';
import { timelineOf } from '../http/writes-helpers.ts';

// An owner's action asked again once its outcome holds finds what it asks for: the row, its
// history and the desk's log stay as they are, and the answer says nothing was changed
// (P-cli-28). The screen and the command line both go through these verbs.

describe.each(DIALECTS)('an action on a row repeated once what it asks already holds ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let ctx: DeskContext;
  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const { desk } = await makeDesk(store.db);
    ctx = deskContext(h.deps, desk, { type: 'owner', name: 'owner' });
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  /** What the row's history and the desk's log hold: a repeat must leave both as they were. */
  async function written(workId: number) {
    const timeline = (await timelineOf(store.db, ctx.desk.id, workId)).map((t) => t.text);
    const events = await store.db
      .selectFrom('events')
      .select(['kind', 'message'])
      .where('desk_id', '=', ctx.desk.id)
      .orderBy('id')
      .execute();
    return { timeline, events, row: await findWork(store.db, ctx.desk.id, workId) };
  }

  it('close on a closed row, its note and all, writes nothing; a note it would lose is refused', async () => {
    const row = await makeWork(store.db, ctx.desk.id, { title: 'Renew the licence' });
    expect((await closeWork(ctx, row.id, { note: 'Renewed by phone.' })).unchanged).toBeNull();
    const before = await written(row.id);
    for (const input of [{}, { note: 'Renewed by phone.' }, { note: '  ' }]) {
      const again = await closeWork(ctx, row.id, input);
      expect(again.unchanged).toBe('is already closed');
      expect(again.row).toEqual(before.row);
    }
    await expect(closeWork(ctx, row.id, { note: 'Something else.' })).rejects.toMatchObject({
      code: 'bad_request',
      message: `Work item ${row.id} is already closed, so the note was not added.`,
    });
    // Done is not the closed a close asks for: still refused.
    const done = await makeWork(store.db, ctx.desk.id, { title: 'Paid', status: 'done' });
    await expect(closeWork(ctx, done.id)).rejects.toMatchObject({ message: `Work item ${done.id} is already done.` });
    expect(await written(row.id)).toEqual(before);
  });

  it('reopen on a row in the queue writes nothing', async () => {
    const open = await makeWork(store.db, ctx.desk.id, { title: 'Order flour' });
    const waiting = await makeWork(store.db, ctx.desk.id, { title: 'Quote', status: 'waiting', waiting_on: 'Mill' });
    const before = [await written(open.id), await written(waiting.id)];
    expect((await reopenWork(ctx, open.id)).unchanged).toBe('is already open');
    expect((await reopenWork(ctx, waiting.id)).unchanged).toBe('is waiting, not done or closed');
    expect([await written(open.id), await written(waiting.id)]).toEqual(before);
  });

  it('giving a row to whoever has it, or handing back a row nobody has, writes nothing', async () => {
    const row = await makeWork(store.db, ctx.desk.id, { title: 'Fix the oven door' });
    expect((await assignWork(ctx, row.id, 'Sam')).unchanged).toBeNull();
    const given = await written(row.id);
    expect((await assignWork(ctx, row.id, ' Sam ')).unchanged).toBe('is already with Sam');
    expect(await written(row.id)).toEqual(given);
    // Another person, or the same one in other letters, is a change.
    expect((await assignWork(ctx, row.id, 'sam')).unchanged).toBeNull();
    expect((await assignWork(ctx, row.id, 'owner')).unchanged).toBeNull();
    expect((await assignWork(ctx, row.id, 'Owner')).unchanged).toBe('is already yours');
    expect((await assignWork(ctx, row.id, null)).unchanged).toBeNull();
    const back = await written(row.id);
    expect((await assignWork(ctx, row.id, null)).unchanged).toBe('is already given to nobody');
    expect(await written(row.id)).toEqual(back);
    expect(back.timeline.filter((t) => t.startsWith('owner ')).length).toBe(4);
    // A row nobody has that still needs a person is handed back to the desk: that is a change.
    const needs = await makeWork(store.db, ctx.desk.id, { title: 'Sign the lease', needs_person: 1 });
    expect((await assignWork(ctx, needs.id, null)).unchanged).toBeNull();
    expect((await findWork(store.db, ctx.desk.id, needs.id))?.needs_person).toBe(0);
  });

  it('an edit to what the row already holds writes nothing, and names only the fields it changed', async () => {
    const row = await makeWork(store.db, ctx.desk.id, { title: 'Service the van', priority: 50 });
    const due = addDays(TEST_NOW.slice(0, 10), 70);
    expect((await editWork(ctx, row.id, { priority: 90, due })).unchanged).toBeNull();
    const edited = await written(row.id);
    expect((await editWork(ctx, row.id, { priority: '90', due })).unchanged).toBe('already has those values');
    expect((await editWork(ctx, row.id, { clear_error: true })).unchanged).toBe('has no fault to clear');
    expect((await editWork(ctx, row.id, { priority: 90, clear_error: true })).unchanged).toBe(
      'already has those values and no fault to clear',
    );
    expect(await written(row.id)).toEqual(edited);
    await editWork(ctx, row.id, { priority: 90, title: 'Service the blue van' });
    expect((await timelineOf(store.db, ctx.desk.id, row.id)).at(-1)?.text).toBe('owner changed title.');
  });
});
