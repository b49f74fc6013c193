import {
  laterMessageGoing,
  settleClaim,
  unsettledClaims,
  unsettledClaimsOn,
  type UnsettledClaim,
} from '../../store/repositories/unsettled.ts';
import type { StaleLine } from '../../store/repositories/stale-line.ts';
import { findWork, updateWork } from '../../store/repositories/work.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import type { Config } from '../../config.ts';
import type { DeskContext } from '../context.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';

// A send that a complete, the screen's button or a run began claims its message, hands it to
// the mail server, and then records what the server said. A process that stopped in between
// (killed, or its database lost at that moment) leaves the message claimed with nothing
// recorded. Once no send can still be under way, whoever comes to the row first (the pass, or
// a call that would send or draft on it) says so on the row, so that nobody, the desk on its
// own least of all, sends it a second time unawares (P-pass-9).

export const SEND_NOT_KNOWN =
  "The desk stopped while sending this message (its process ended, or its database could not be reached), so whether it went is not known. Look in the mailbox's sent mail, then send it again or mark the row done.";

/** How long after its claim a send can be under way: the mail server's time to answer, and a minute to record what it said. */
function longestSendMs(config: Pick<Config, 'mailTimeoutMs'>): number {
  return config.mailTimeoutMs + 60_000;
}

/** When a send claimed at `at`, under these limits, is taken as left behind by a process that stopped. */
export function sendStaleAt(config: Pick<Config, 'mailTimeoutMs'>, at: string): string {
  return new Date(Date.parse(at) + longestSendMs(config)).toISOString();
}

/**
 * Where claims whose send recorded nothing stop being under way now: each by the limits of the
 * process that claimed it; one claimed before claims recorded that, by this process's.
 */
export function sendStaleLine(ctx: DeskContext): StaleLine {
  const now = ctx.clock.now().getTime();
  return { now: new Date(now).toISOString(), legacyBefore: new Date(now - longestSendMs(ctx.config)).toISOString() };
}

/** What a send on the row is doing: under way now, found just now to have stopped unrecorded, or neither. */
export type SendState = 'sending' | 'not_known' | null;

/** Where a send on the row stands; a claim a stopped send left is recorded as not known first. */
export async function sendState(ctx: DeskContext, workId: number): Promise<SendState> {
  const line = sendStaleLine(ctx);
  const claims = await unsettledClaimsOn(ctx.db, ctx.desk.id, workId);
  let settled = false;
  for (const claim of claims.filter((c) => c.approved_at !== null && !underWay(c, line)))
    if (await settleSend(ctx, claim)) settled = true;
  if (claims.some((c) => underWay(c, line))) return 'sending';
  return settled ? 'not_known' : null;
}

/**
 * Whether a send on the row can be under way this moment, without recording anything: for a
 * check whose caller may yet refuse and undo what its transaction wrote.
 */
export async function sendUnderWay(ctx: DeskContext, workId: number): Promise<boolean> {
  const line = sendStaleLine(ctx);
  return (await unsettledClaimsOn(ctx.db, ctx.desk.id, workId)).some((c) => underWay(c, line));
}

/**
 * A claim recent enough that its send may still be going, by its own instant or, claimed before
 * claims had one, by the line. (One with no time, from before claims were timed, is neither.)
 */
const underWay = (c: { approved_at: string | null; send_stale_at: string | null }, line: StaleLine) =>
  c.approved_at !== null &&
  (c.send_stale_at !== null ? c.send_stale_at >= line.now : c.approved_at >= line.legacyBefore);

/** Records, for each of the desk's messages a stopped send left claimed, that whether it went is not known. */
export async function settleAbandonedSends(ctx: DeskContext, most: number): Promise<number> {
  let settled = 0;
  for (const claim of await unsettledClaims(ctx.db, ctx.desk.id, sendStaleLine(ctx), most))
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
    // A later message on the row has gone, or is going: the row stands where that one put it.
    const overtaken = await laterMessageGoing(tx.db, tx.desk.id, row.id, claim.id);
    if (!isFinished(row.status) && !overtaken)
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
