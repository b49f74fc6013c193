import { findWork, updateWork } from '../../store/repositories/work.ts';
import type { WorkRow } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { logTimeline } from '../record.ts';
import { plural } from '../text.ts';

/**
 * A message sent to somebody already awaited is a chase (P-pass-2), however it went: a run, the
 * desk's pass, complete or the screen's button. Counted, and said on the row, in the send's own
 * transaction. `row` is the row as the send was decided: who it was waiting on then.
 */
export async function countChase(ctx: DeskContext, row: WorkRow): Promise<void> {
  const now = (await findWork(ctx.db, ctx.desk.id, row.id)) ?? row;
  const n = now.chases + 1;
  await updateWork(ctx.db, ctx.desk.id, row.id, { chases: n });
  const left = now.max_chases - n;
  // A reply read while the chase was on its way ended the wait: no next chase is coming.
  const next =
    row.replied_at === null && now.replied_at !== null
      ? `${now.replied_by ?? 'they'} replied meanwhile, so no further chase goes`
      : left > 0
        ? `the desk chases again after ${plural(now.chase_after_days, 'day')} without an answer`
        : 'the next time it comes due, a person follows it up';
  // A person may chase past the number the desk sends on its own (P-pass-2): "3 of 2" would read wrong.
  const which =
    n <= now.max_chases
      ? `Chase ${n} of ${now.max_chases}`
      : `Chase ${n} (the desk sends ${now.max_chases === 0 ? 'none' : plural(now.max_chases, 'chase')} on its own)`;
  await logTimeline(ctx, row.id, 'chased', `${which} sent to ${row.waiting_on}; ${next}.`);
}
