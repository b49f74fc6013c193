import { describe, expect, it } from 'vitest';
import { addArrangementNote, NOTE_MAX_CHARS } from '../../src/domain/arrangements/note.ts';
import { addArrangement } from '../helpers/business.ts';
import { deskContext } from '../../src/domain/context.ts';
import { TEXT_MAX } from '../../src/domain/limits.ts';
import { completeWork } from '../../src/domain/work/complete.ts';
import { closeWork } from '../../src/domain/work/status.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { makeWork } from '../helpers/factories.ts';
import { ownerDesk } from '../helpers/owner-desk.ts';

// A note on closing or completing becomes the last paragraph of the row's detail: held to the
// detail's limit, so that notes added one by one never make a detail no form or file would take.

describe("a closing or completing note and the row's detail", () => {
  const t = ownerDesk({ name: 'Long Notes Ltd' });
  const full = 'd'.repeat(TEXT_MAX.detail - 10);

  it('is refused, before anything changes, when the detail has no room for it', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Long one', detail: full });
    const note = 'n'.repeat(20);
    const said = `The note would make the row's detail 20,012 characters, over the 20,000 it holds; shorten the note, or the row's detail first.`;
    await expect(closeWork(t.ctx, row.id, { note })).rejects.toMatchObject({ code: 'bad_request', message: said });
    await expect(completeWork(t.ctx, row.id, { note })).rejects.toMatchObject({ code: 'bad_request', message: said });
    expect(await findWork(t.store.db, t.ctx.desk.id, row.id)).toMatchObject({ status: 'open', detail: full });
  });

  it('goes on the end of a detail that has room, up to the limit exactly', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Fits', detail: full });
    const closed = await closeWork(t.ctx, row.id, { note: 'n'.repeat(8) });
    expect(closed.row.detail).toHaveLength(TEXT_MAX.detail);
    const other = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Fits too', detail: full });
    await completeWork(t.ctx, other.id, { note: 'n'.repeat(8) });
    expect((await findWork(t.store.db, t.ctx.desk.id, other.id))?.detail).toHaveLength(TEXT_MAX.detail);
  });
  it("refuses the owner's completing note past 4,000 characters, where a program's is cut there", async () => {
    const note = `${'n'.repeat(NOTE_MAX_CHARS)}!`;
    const mine = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Typed by the owner' });
    await expect(completeWork(t.ctx, mine.id, { note })).rejects.toMatchObject({
      code: 'bad_request',
      message: 'A note is at most 4,000 characters; this one is longer.',
      details: { field: 'note' },
    });
    expect(await findWork(t.store.db, t.ctx.desk.id, mine.id)).toMatchObject({ status: 'open', detail: null });
    // Counted as kept: one that opens a direction is closed, and that mark counts; spaces and
    // line breaks at the ends are not kept, and do not count.
    const opens = `\u202E${'A'.repeat(NOTE_MAX_CHARS - 2)}Z`;
    await expect(completeWork(t.ctx, mine.id, { note: opens })).rejects.toMatchObject({ details: { field: 'note' } });
    const lease = await addArrangement(t.store.db, t.ctx.desk.id, { name: 'Note lease' });
    await expect(addArrangementNote(t.ctx, lease.id, { body: opens })).rejects.toMatchObject({
      details: { field: 'body' },
    });
    const padded = `${'n'.repeat(NOTE_MAX_CHARS)}\n`;
    expect((await addArrangementNote(t.ctx, lease.id, { body: padded })).body).toBe('n'.repeat(NOTE_MAX_CHARS));
    // Counted as a person counts: 4,000 emoji are a note that fits.
    await completeWork(t.ctx, mine.id, { note: '🍞'.repeat(NOTE_MAX_CHARS) });
    expect(await findWork(t.store.db, t.ctx.desk.id, mine.id)).toMatchObject({ status: 'done' });
    const program = deskContext(t.h.deps, t.ctx.desk, { type: 'key', keyId: 1, keyPrefix: 'desk_x', keyName: 'app' });
    const theirs = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Sent by a program' });
    await completeWork(program, theirs.id, { note });
    expect((await findWork(t.store.db, t.ctx.desk.id, theirs.id))?.detail).toBe('n'.repeat(NOTE_MAX_CHARS));
  });

  it('closes a direction a note or an actor leaves open, so the sentence around it reads as written', async () => {
    const row = await makeWork(t.store.db, t.ctx.desk.id, { title: 'Right to left' });
    await completeWork(t.ctx, row.id, { note: 'see \u202Eabc', actor: 'Zo\u202Ee' });
    expect((await findWork(t.store.db, t.ctx.desk.id, row.id))?.detail).toBe('see \u202Eabc\u202C');
    const [entry] = await t.store.db
      .selectFrom('timeline')
      .select('text')
      .where('work_id', '=', row.id)
      .where('kind', '=', 'completed')
      .execute();
    expect(entry!.text).toBe('Zo\u202Ee\u202C marked this done. Note: see \u202Eabc\u202C');
  });
});
