import { findWork, moveWork } from '../../store/repositories/work.ts';
import { withdrawDraft } from '../../store/repositories/activity.ts';
import { actorName, type DeskContext } from '../context.ts';
import { detailWithNote, endsWithNote } from '../limits.ts';
import { badRequest, notFound } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import { newestDraft } from './draft.ts';
import { underWay } from './under-way.ts';
import type { Acted } from './acted.ts';

// The owner's status changes (D11): close stores `closed`; reopen brings a done or closed row
// back to `open`. Neither is an API route. Asked of a row already as they leave it, they change
// nothing and say so (P-cli-28).

export async function closeWork(ctx: DeskContext, workId: number, input: { note?: string } = {}): Promise<Acted> {
  return atomically(ctx, async (tx) => {
    await lockRow(tx, workId);
    const row = await findWork(tx.db, tx.desk.id, workId);
    if (!row) throw notFound('work item', workId);
    const note = input.note?.trim();
    if (row.status === 'closed') {
      if (!note || endsWithNote(row.detail, note)) return { row, unchanged: 'is already closed' };
      // A note the row does not hold would be lost: the close that would have kept it is over.
      throw badRequest(`Work item ${row.id} is already closed, so the note was not added.`);
    }
    // Done is not closed: the row ended another way, which a close does not rewrite.
    if (isFinished(row.status)) throw badRequest(`Work item ${row.id} is already ${row.status}.`);
    const busy = await underWay(tx, row.id);
    if (busy) throw badRequest(`Work item ${row.id} is not closed: ${busy}`);
    const now = tx.now();
    const detail = detailWithNote(row.detail, note || null);
    if (
      !(await moveWork(tx.db, tx.desk.id, row.id, row.status, 'closed', {
        detail,
        closed_at: now,
        updated_at: now,
        replied_by: null,
        replied_at: null,
      }))
    ) {
      throw badRequest(`Work item ${row.id} changed while closing it; try again.`);
    }
    // A message prepared and not sent goes with the row: a closed row has nothing left to send.
    const draft = await newestDraft(tx, row.id);
    if (draft) await withdrawDraft(tx.db, draft.id);
    const who = actorName(tx.actor);
    await logEvent(tx, 'work_closed', `${who} closed "${row.title}".`, { work_id: row.id, by: who });
    const said = note ? `${who} closed this: ${note}` : `${who} closed this.`;
    await logTimeline(
      tx,
      row.id,
      'closed',
      draft
        ? `${said}${/[.!?]$/.test(said) ? '' : '.'} The prepared message "${draft.subject ?? ''}" was withdrawn, unsent.`
        : said,
    );
    return { row: (await findWork(tx.db, tx.desk.id, row.id))!, unchanged: null };
  });
}

export async function reopenWork(ctx: DeskContext, workId: number): Promise<Acted> {
  return atomically(ctx, async (tx) => {
    await lockRow(tx, workId);
    const row = await findWork(tx.db, tx.desk.id, workId);
    if (!row) throw notFound('work item', workId);
    // Reopen asks for the row back in the queue; one not done or closed is there already.
    if (!isFinished(row.status))
      return { row, unchanged: row.status === 'open' ? 'is already open' : `is ${row.status}, not done or closed` };
    const now = tx.now();
    if (!(await moveWork(tx.db, tx.desk.id, row.id, row.status, 'open', { closed_at: null, updated_at: now }))) {
      throw badRequest(`Work item ${row.id} changed while reopening it; try again.`);
    }
    const who = actorName(tx.actor);
    await logEvent(tx, 'work_reopened', `${who} reopened "${row.title}".`, { work_id: row.id, by: who });
    await logTimeline(tx, row.id, 'reopened', `${who} reopened this.`);
    return { row: (await findWork(tx.db, tx.desk.id, row.id))!, unchanged: null };
  });
}
