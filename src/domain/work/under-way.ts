import { runningOn } from '../../store/repositories/runs.ts';
import type { DeskContext } from '../context.ts';
import { staleLine } from './run-record.ts';
import { sendUnderWay } from './unsettled.ts';

// What another call is doing to a row right now, that an owner's change must not land under:
// closing a row, or giving it to a person, while the desk sends its message or runs it would
// decide the row's end while the send or the run decides it too (P-writes-3).

/** Why the row cannot be changed this moment, as the end of a sentence; null when it can. */
export async function underWay(ctx: DeskContext, workId: number): Promise<string | null> {
  // A send a stopped process left is not under way: closing or handing on the row does not race
  // it, and the pass records it as not known.
  if (await sendUnderWay(ctx, workId))
    return 'a message on it is being sent right now. Try again once the send has finished, in a moment.';
  if (await runUnderWay(ctx, workId))
    return 'the desk is working on it right now (a run is under way). Try again once the run has finished.';
  return null;
}

/** Whether a run on the row is under way: one a stopped process left is not (P-run-15). */
export async function runUnderWay(ctx: DeskContext, workId: number): Promise<boolean> {
  return (await runningOn(ctx.db, ctx.desk.id, workId, staleLine(ctx))).length > 0;
}
