import { runningOn } from '../../store/repositories/runs.ts';
import type { DeskContext } from '../context.ts';
import { staleBefore } from './run-record.ts';
import { sendState } from './unsettled.ts';

// What another call is doing to a row right now, that an owner's change must not land under:
// closing a row, or giving it to a person, while the desk sends its message or runs it would
// decide the row's end while the send or the run decides it too (P-writes-3).

/** Why the row cannot be changed this moment, as the end of a sentence; null when it can. */
export async function underWay(ctx: DeskContext, workId: number): Promise<string | null> {
  const sending = await sendState(ctx, workId);
  if (sending === 'sending')
    return 'a message on it is being sent right now. Try again once the send has finished, in a moment.';
  if (sending === 'not_known')
    return "the desk stopped while sending a message on it, so whether the message went is not known. Look in the mailbox's sent mail, then try again.";
  if ((await runningOn(ctx.db, ctx.desk.id, workId, staleBefore(ctx))).length > 0)
    return 'the desk is working on it right now (a run is under way). Try again once the run has finished.';
  return null;
}
