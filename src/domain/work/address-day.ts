import { sentOrGoingTo } from '../../store/repositories/activity.ts';
import { rowsWithDrafts } from '../../store/repositories/work.ts';
import { rowsBeingWritten } from '../../store/repositories/runs.ts';
import type { DeskContext } from '../context.ts';
import { staleLine } from './run-record.ts';
import type { WorkRow } from '../../store/schema.ts';
import { addressKey } from '../mail/address.ts';

// One message a day from the desk to any one address (P-pass-6), asked again under a claim with
// the desk held. Two passes at once (a server's and `desk work pass`, or two servers on one
// database) each choose their rows before the other's message has gone: what the other is
// sending, or is running on a row to send, counts as written.

/** Whether a message to `to` (lower case) went or is going since `since`, other than on `rowId`. */
export async function writingTo(ctx: DeskContext, rowId: number, to: string, since: string): Promise<boolean> {
  if (await sentOrGoingTo(ctx.db, ctx.desk.id, to, since)) return true;
  // A run under way, not a row's status alone: a business file may bring a row in_progress
  // that a person is handling, and nothing is writing on it.
  const busy = await rowsBeingWritten(ctx.db, ctx.desk.id, rowId, staleLine(ctx));
  if (busy.length === 0) return false;
  const drafts = await rowsWithDrafts(
    ctx.db,
    ctx.desk.id,
    busy.map((r) => r.id),
  );
  return busy.some((r) => actAddress(r, drafts) === to);
}

/**
 * The address the desk's act on a row writes to: its draft's, else its contact's, in one letter
 * case (one mailbox whatever the case it was written in). One message a day goes to it.
 */
export function actAddress(
  row: Pick<WorkRow, 'id' | 'contact_email'>,
  drafts: ReadonlyMap<number, string | null>,
): string | undefined {
  const to = drafts.has(row.id) ? drafts.get(row.id) : row.contact_email;
  return to == null ? undefined : addressKey(to);
}
