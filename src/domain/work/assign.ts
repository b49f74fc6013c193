import { findWork, updateWork } from '../../store/repositories/work.ts';
import { actorName, type DeskContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import { OWNER } from '../vocab.ts';
import { withinLimit } from '../limits.ts';
import { underWay } from './under-way.ts';
import type { Acted } from './acted.ts';

// The owner gives a row to a person ("Assign to me"): from then on it needs that person, so
// the desk prepares and stops (action `own`). Clearing the assignee hands the row back.

/** The person a row goes to as typed; the owner's own name, in any case, is the owner. */
function personOf(to: string | null): string | null {
  const person = to?.trim() || null;
  return person?.toLowerCase() === OWNER ? OWNER : person;
}

export async function assignWork(ctx: DeskContext, workId: number, to: string | null): Promise<Acted> {
  const person = withinLimit('assignee', personOf(to));
  if (to !== null && person === null)
    throw badRequest('Say who the row goes to, or clear the assignment.', { field: 'assignee' });
  return atomically(ctx, async (tx) => {
    await lockRow(tx, workId);
    const row = await findWork(tx.db, tx.desk.id, workId);
    if (!row) throw notFound('work item', workId);
    // Given again to whoever has it, or handed back when nobody has it and the desk may work it:
    // nothing is changed, and the history does not say it was given twice (P-cli-28).
    if (row.assignee === person && row.needs_person === (person ? 1 : 0))
      return {
        row,
        unchanged: !person
          ? 'is already given to nobody'
          : person === OWNER
            ? 'is already yours'
            : `is already with ${person}`,
      };
    // Given to a person, the row is no longer the desk's to send or run: not while it does.
    const busy = person ? await underWay(tx, row.id) : null;
    if (busy) throw badRequest(`Work item ${row.id} is not given to ${person}: ${busy}`, { field: 'assignee' });
    const now = tx.now();
    // A reply the row holds stays on it, given to somebody or handed back: the desk writes
    // nothing more to whoever replied until a person answers, completes or closes it (P-mail-3).
    await updateWork(tx.db, tx.desk.id, row.id, { assignee: person, needs_person: person ? 1 : 0, updated_at: now });
    const who = actorName(tx.actor);
    // The row's own history says "this"; the desk's log names the row, as its other lines do.
    const said = (it: string) =>
      person
        ? person === who
          ? `${who} took ${it} on.`
          : `${who} assigned ${it} to ${person}.`
        : row.assignee === null || row.assignee === who
          ? `${who} handed ${it} back to the desk.`
          : `${who} took ${it} back from ${row.assignee} and handed it to the desk.`;
    await logEvent(tx, 'work_assigned', said(`"${row.title}"`), { work_id: row.id, assignee: person, by: who });
    await logTimeline(tx, row.id, 'assigned', said('this'));
    return { row: (await findWork(tx.db, tx.desk.id, row.id))!, unchanged: null };
  });
}
