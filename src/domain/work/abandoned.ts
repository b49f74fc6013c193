import { staleRuns, stillRunning } from '../../store/repositories/runs.ts';
import { findWork } from '../../store/repositories/work.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import type { DeskContext } from '../context.ts';
import { settleRun, staleLine, type Ending, type RunHow } from './run-record.ts';
import { settleAbandonedSends } from './unsettled.ts';

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
    outcome: `The desk stopped while working on "${title}" and did not come back to it`,
    reason: playbook
      ? 'The desk stopped (its process ended) while following the playbook, so how far it got is not known. Check the portal, then run it again or mark the row done.'
      : "The desk stopped (its process ended) while sending, so whether the message went is not known. Look in the mailbox's sent mail, then send it again or mark the row done.",
    done: playbook ? 'How far the playbook got is not known.' : 'Whether the message went is not known.',
  };
}

/** Ends the desk's runs and sends left behind by a stopped process; how many it ended. */
export async function settleAbandoned(ctx: DeskContext, most = SETTLE_MOST): Promise<number> {
  let settled = await settleAbandonedSends(ctx, most);
  for (const run of await staleRuns(ctx.db, ctx.desk.id, staleLine(ctx), most)) {
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
