import { staleRuns, stillRunning } from '../../store/repositories/runs.ts';
import { settleClaim, unsettledClaims, type UnsettledClaim } from '../../store/repositories/unsettled.ts';
import { findWork, updateWork } from '../../store/repositories/work.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import type { DeskContext } from '../context.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';
import { settleRun, staleBefore, type Ending, type RunHow } from './run-record.ts';
import { sendUnderWaySince } from './send.ts';

// A run whose process ended outright (killed, or cut off past the drain) stays `running` and
// holds its row `in_progress`, where no pass reaches it and the screen says it is being worked
// on. Once older than any run can live, each pass ends such runs as failed runs: the row goes
// back to the status the run found, with a reason to look at it, since whether the message went
// or the portal took the filing is not known.

/** Runs settled at most in one pass; the rest wait for the next. */
export const SETTLE_MOST = 20;

function ending(how: RunHow, title: string): Ending {
  const playbook = how === 'playbook';
  return {
    kind: 'failed',
    outcome: `The desk stopped while working on "${title}" and did not come back to it; it needs a look.`,
    reason: playbook
      ? 'The desk stopped (its process ended) while following the playbook, so how far it got is not known. Check the portal, then run it again or mark the row done.'
      : "The desk stopped (its process ended) while sending, so whether the message went is not known. Look in the mailbox's sent mail, then send it again or mark the row done.",
    done: playbook ? 'How far the playbook got is not known.' : 'Whether the message went is not known.',
  };
}

/** Ends the desk's runs and sends left behind by a stopped process; how many it ended. */
export async function settleAbandoned(ctx: DeskContext, most = SETTLE_MOST): Promise<number> {
  let settled = await settleAbandonedSends(ctx, most);
  for (const run of await staleRuns(ctx.db, ctx.desk.id, staleBefore(ctx), most)) {
    const ended = await atomically(ctx, async (tx) => {
      await lockRow(tx, run.work_id);
      // Another pass, or a run taking the row over, may have ended it since it was read.
      if (!(await stillRunning(tx.db, run.id))) return false;
      const row = await findWork(tx.db, tx.desk.id, run.work_id);
      if (!row) return false;
      const how = (run.how ?? 'send') as RunHow;
      const began = Date.parse(run.started_at);
      await settleRun(
        tx,
        {
          run,
          row,
          how,
          prior: run.prior_status ?? 'open',
          elapsed: () => Math.max(0, tx.clock.now().getTime() - began),
        },
        ending(how, row.title),
      );
      return true;
    });
    if (ended) settled++;
  }
  return settled;
}

// A send that a complete, the screen's button or a run began claims its message, hands it to
// the mail server, and then records what the server said. A process that stopped in between
// (killed, or its database lost at that moment) leaves the message claimed with nothing
// recorded; once no send can still be under way, the pass says so on the row, so that nobody,
// the desk on its own least of all, sends it a second time unawares.

export const SEND_NOT_KNOWN =
  "The desk stopped while sending this message (its process ended, or its database could not be reached), so whether it went is not known. Look in the mailbox's sent mail, then send it again or mark the row done.";

/** Records, for each message a stopped send left claimed, that whether it went is not known. */
async function settleAbandonedSends(ctx: DeskContext, most: number): Promise<number> {
  let settled = 0;
  for (const claim of await unsettledClaims(ctx.db, ctx.desk.id, sendUnderWaySince(ctx), most))
    if (await settleSend(ctx, claim)) settled++;
  return settled;
}

async function settleSend(ctx: DeskContext, claim: UnsettledClaim): Promise<boolean> {
  const workId = claim.obligation_id;
  return atomically(ctx, async (tx) => {
    if (workId !== null) await lockRow(tx, workId);
    // The send may have recorded how it ended since the claim was read.
    if (!(await settleClaim(tx.db, claim.id, SEND_NOT_KNOWN))) return false;
    const subject = claim.subject ?? '';
    const to = claim.to_address ?? '';
    await logEvent(tx, 'send_failed', `Could not tell whether "${subject}" went to ${to || 'nobody'}.`, {
      ...(workId !== null ? { work_id: workId } : {}),
      activity_id: claim.id,
      to,
      reason: SEND_NOT_KNOWN,
      actor: 'desk',
      outcome_unknown: true,
    });
    const row = workId === null ? undefined : await findWork(tx.db, tx.desk.id, workId);
    if (!row) return true;
    if (!isFinished(row.status))
      await updateWork(tx.db, tx.desk.id, row.id, { last_error: SEND_NOT_KNOWN, updated_at: tx.now() });
    await logTimeline(
      tx,
      row.id,
      'send_failed',
      `"${subject}" was approved, but is not known to have been sent: ${SEND_NOT_KNOWN}`,
    );
    return true;
  });
}
