import type { WorkRow } from '../../store/schema.ts';
import { addDaysUpToLast } from '../dates.ts';
import { UNGRANTABLE } from '../vocab.ts';
import { chaseDue, deriveAction, isAllowed } from './derive.ts';
import { plural } from '../text.ts';

// What the desk would do with a row on its own (issue 17), as a pure rule over the row, its
// grants and the clock: carry it out (its action is `run` and its date is in reach), chase it
// (a chase is due and `chase` is granted), or leave it, with the reason. The pass acts on this;
// the screen shows it. The rails of the desk as a whole (paused, hours, the daily cap) and the
// 24-hour rule on one address are the pass's; the run itself checks again under its claim.

export interface OwnInput {
  row: WorkRow;
  hasDraft: boolean;
  grants: ReadonlySet<string>;
  today: string;
  timezone: string;
  /** Days ahead of a due date the desk acts. */
  actWithinDays: number;
  /** The instant 24 hours before now. */
  dayAgo: string;
  /** Whether a browser can be started where the desk runs: a playbook needs one. */
  browser: boolean;
  /** Whether the desk has a mailbox connected: a message needs one. */
  mailbox: boolean;
}

/** `shown`: the reason is the row's own hint, which every place that shows the row already says. */
export type OwnAct = { as: 'run' | 'chase' } | { leave: string; shown?: true };

export const NO_BROWSER =
  'Its playbook needs a browser, and there is none on the machine that runs the desk (set DESK_CHROMIUM_PATH).';

export const NO_MAILBOX_OWN =
  'It is done by sending a message, and no mailbox is connected, so the desk has nowhere to send it from (connect one under Connections).';

/** Why a message prepared on a waiting row does not go yet: it would be a chase, and none is due. */
export function noChaseDue(row: WorkRow): string {
  const when =
    row.chases >= row.max_chases
      ? `no chase is left (${row.chases} of ${row.max_chases} sent)`
      : `the desk chases after ${plural(row.chase_after_days, 'day')} without an answer`;
  return `It is waiting on ${row.waiting_on}, so the message prepared on it would be a chase, and ${when}.`;
}

export function ownAct(i: OwnInput): OwnAct {
  const { row } = i;
  if (row.class !== null && (UNGRANTABLE as readonly string[]).includes(row.class))
    return { leave: `${row.class === 'money' ? 'Money' : 'Signing'} is never done by the desk on its own.` };
  const action = deriveAction(i);
  if (!action) return { leave: 'Nothing is left to do.' };
  if (row.status === 'in_progress') return { leave: 'It is being worked on now.' };
  if (row.desk_acted_at && row.desk_acted_at >= i.dayAgo)
    return { leave: 'The desk acted on it in the last 24 hours.' };
  // A prepared message on a row already waiting on somebody is a chase, however it came to be
  // prepared (P-pass-2): on its own the desk sends it only as one, when a chase is due and granted.
  const chasing = action.type === 'nudge' || (action.type === 'run' && i.hasDraft && !!row.waiting_on?.trim());
  if (chasing) {
    if (!chaseDue(row, i.today, i.timezone))
      return action.type === 'nudge' ? { leave: action.hint, shown: true } : { leave: noChaseDue(row) };
    if (!isAllowed('chase', i.grants)) return { leave: 'Chasing is not granted, so the desk only prepares.' };
    // A chase is a message; a playbook is no way to chase somebody.
    if (!i.hasDraft && !row.contact_email?.trim())
      return { leave: 'Nobody on it can be written to, so the desk cannot chase. Say who it goes to.' };
    return i.mailbox ? { as: 'chase' } : { leave: NO_MAILBOX_OWN };
  }
  if (action.type === 'run') {
    const horizon = addDaysUpToLast(i.today, i.actWithinDays);
    if (row.due_date !== null && row.due_date > horizon)
      return { leave: `It is not due until ${row.due_date}; the desk acts ${plural(i.actWithinDays, 'day')} ahead.` };
    // Carried out by its playbook (a prepared message would be sent instead), which needs a browser.
    if (row.playbook_id !== null && !i.hasDraft) return i.browser ? { as: 'run' } : { leave: NO_BROWSER };
    // Otherwise it is a message, which with no mailbox would only fail and need a look (D13).
    return i.mailbox ? { as: 'run' } : { leave: NO_MAILBOX_OWN };
  }
  // Approving and preparing are left to the owner only because the class is not granted.
  if (action.type === 'approve' || action.type === 'prepare')
    return {
      leave:
        row.class === null
          ? 'It has no permission class, so it always waits for you.'
          : `"${row.class}" work is not granted, so the desk only prepares it.`,
    };
  return { leave: action.hint, shown: true };
}
