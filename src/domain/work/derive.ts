import type { WorkRow } from '../../store/schema.ts';
import { daysBetween, dateOfInstant, dateOfStored } from '../dates.ts';
import { OWNER, UNGRANTABLE, isFinished, type PermissionClass, storedClass, storedStatus } from '../vocab.ts';
import { plural } from '../text.ts';
import type { Action, WorkItem } from '../contract/shared.ts';
import { sameAddress } from '../mail/address.ts';

/** The label of the approve action, and of the screen's form that approves a message. */
export const APPROVE_LABEL = 'Approve and send';

export type { Action, WorkItem } from '../contract/shared.ts';

// Everything a work item shows that is not stored: day counts, permission, and the action.
// Pure functions over a row and the desk's grants, so that each rule is tested as a table.

export interface DeriveInput {
  row: WorkRow;
  /** A message on the row is in state `drafted`. */
  hasDraft: boolean;
  /** The address the row's newest draft goes to, when it names one. */
  draftTo?: string | null;
  grants: ReadonlySet<string>;
  today: string;
  timezone: string;
}

/** True when the owner has granted the row's class; never for money, sign or unclassified rows. */
export function isAllowed(permission: string | null, grants: ReadonlySet<string>): boolean {
  if (permission === null) return false;
  if ((UNGRANTABLE as readonly string[]).includes(permission)) return false;
  return grants.has(permission as PermissionClass);
}

export function daysToDue(due: string | null, today: string): number | null {
  return due === null ? null : daysBetween(today, due);
}

export function isOverdue(due: string | null, today: string): boolean {
  return due !== null && due < today;
}

/** Days since the row went out to somebody; null when nothing is awaited. */
export function daysWaiting(
  row: Pick<WorkRow, 'waiting_on' | 'waiting_since' | 'updated_at'>,
  today: string,
  timezone: string,
): number | null {
  if (!row.waiting_on) return null;
  const since = row.waiting_since ?? row.updated_at;
  return Math.max(0, daysBetween(dateOfStored(timezone, since), today));
}

/** "Sam Oven replied on 2026-11-22": a reply that waits to be read, on the desk's calendar. */
export function repliedWords(row: Pick<WorkRow, 'replied_by' | 'replied_at'>, timezone: string): string {
  return `${row.replied_by ?? 'Somebody'} replied on ${row.replied_at ? dateOfInstant(timezone, row.replied_at) : 'a day not known'}`;
}

/** The owner marked the step as a person's, or it needs a signature (D10 rule 3). */
export function needsPerson(row: Pick<WorkRow, 'needs_person' | 'class'>): boolean {
  return !!row.needs_person || row.class === 'sign';
}

/** The desk has a way to act on the row: a playbook to follow, or somebody to write to. */
export function hasWayToAct(row: Pick<WorkRow, 'playbook_id' | 'contact_email'>): boolean {
  return row.playbook_id !== null || !!row.contact_email;
}

type ChaseFacts = Pick<
  WorkRow,
  'waiting_on' | 'waiting_since' | 'updated_at' | 'chase_after_days' | 'chases' | 'max_chases'
>;

function chasePointCome(row: ChaseFacts, today: string, timezone: string): boolean {
  const waited = daysWaiting(row, today, timezone);
  return waited !== null && waited >= row.chase_after_days;
}

/**
 * The one chase decision (D10 rule 5, P-pass-2): somebody is awaited, has been for at least the
 * row's chase interval, and the row has chases left. A reply that clears the wait stops it.
 */
export function chaseDue(row: ChaseFacts, today: string, timezone: string): boolean {
  return chasePointCome(row, today, timezone) && row.chases < row.max_chases;
}

/** The chase point has come again after the last chase the row allows: a person follows it up. */
export function outOfChases(row: ChaseFacts, today: string, timezone: string): boolean {
  return chasePointCome(row, today, timezone) && row.chases >= row.max_chases;
}

/** Who has not answered since when, after how many chases. */
export function unansweredWords(row: ChaseFacts, timezone: string): string {
  const since = row.waiting_since ?? row.updated_at;
  return `${row.waiting_on} has not answered since ${dateOfStored(timezone, since)}, after ${plural(row.chases, 'chase')}`;
}

function dueWords(days: number | null): string {
  if (days === null) return 'It has no due date';
  if (days < 0) return `It was due ${plural(-days, 'day')} ago`;
  if (days === 0) return 'It is due today';
  return `It is due in ${plural(days, 'day')}`;
}

/** D10: the action a row needs next; the first rule that matches wins. */
export function deriveAction(input: DeriveInput): Action | null {
  const { row, hasDraft } = input;
  if (isFinished(row.status)) return null;
  const allowed = isAllowed(row.class, input.grants);
  const due = dueWords(daysToDue(row.due_date, input.today));
  const who = row.contact_name ?? row.contact_email;

  if (row.last_error) {
    const error = row.last_error.trim();
    return {
      type: 'fix',
      label: 'Needs a look',
      hint: `The desk tried and it failed: ${error}${/[.!?]$/.test(error) ? '' : '.'}`,
    };
  }
  // What the desk has done for a person, or the reply that person has to see to (P-mail-3).
  const held = row.replied_at ? repliedWords(row, input.timezone) : 'the desk has prepared what it can';
  if (row.replied_at && !row.assignee) {
    // A reply waits for a person to read it until the owner completes, answers or closes the
    // row, or gives it to somebody (P-mail-3).
    return {
      type: 'own',
      label: 'Read the reply',
      hint: `${repliedWords(row, input.timezone)}; read it and decide what happens next.`,
    };
  }
  if (needsPerson(row) || outOfChases(row, input.today, input.timezone)) {
    if (!needsPerson(row)) {
      const hint = `${unansweredWords(row, input.timezone)}; the desk has stopped chasing. ${due}.`;
      return { type: 'own', label: ownLabel(row.assignee), hint };
    }
    // The owner took it ("Assign to me"): theirs to do, with nobody else to check with.
    if (row.assignee === OWNER)
      return {
        type: 'own',
        label: ownLabel(row.assignee),
        hint: `You took it on; ${held}. ${due}.`,
      };
    // A row already given to somebody asks the owner to follow it up, not to take it (P-cli-3).
    if (row.assignee)
      return {
        type: 'own',
        label: `Check with ${row.assignee}`,
        hint: `It is with ${row.assignee}; ${held}. ${due}.`,
      };
    const why = row.class === 'sign' ? 'It needs a signature' : 'Only a person can do this step';
    return { type: 'own', label: 'Assign to me', hint: `${why}; the desk has prepared what it can. ${due}.` };
  }
  if (hasDraft) {
    // The draft's own address, once the owner or a business file sent it elsewhere.
    const elsewhere = input.draftTo?.trim() && !sameAddress(input.draftTo, row.contact_email);
    const named = elsewhere ? input.draftTo!.trim() : who;
    const to = named ? ` to ${named}` : '';
    return allowed
      ? {
          type: 'run',
          label: 'Run it now',
          hint: `A message${to} is ready and the desk may send it; run it now rather than wait.`,
        }
      : {
          type: 'approve',
          label: APPROVE_LABEL,
          hint: `A message${to} is prepared; it goes out once you approve it. Nothing has been sent.`,
        };
  }
  if (row.waiting_on) {
    const waited = daysWaiting(row, input.today, input.timezone) ?? 0;
    if (chaseDue(row, input.today, input.timezone)) {
      return {
        type: 'nudge',
        label: 'Chase it',
        hint: `${row.waiting_on} has not answered in ${plural(waited, 'day')}; asking again is the work.`,
      };
    }
    return {
      type: 'wait',
      label: waited >= 1 ? `Waiting ${waited}d` : 'Waiting',
      hint: `Waiting on ${row.waiting_on}${waited >= 1 ? ` for ${plural(waited, 'day')}` : ' since today'}; ${
        row.chases >= row.max_chases
          ? `no chase is left (${row.chases} of ${row.max_chases} sent), so after ${plural(row.chase_after_days, 'day')} without an answer a person follows it up`
          : `it is chased after ${plural(row.chase_after_days, 'day')}`
      }.`,
    };
  }
  if (row.status === 'waiting') return null;
  const canAct = hasWayToAct(row);
  if (allowed && canAct) {
    const how = row.playbook_id !== null ? 'follows its playbook' : `writes to ${who}`;
    return { type: 'run', label: 'Let the desk do it', hint: `The desk may do this on its own and ${how}. ${due}.` };
  }
  if (!canAct) {
    return {
      type: 'answer',
      label: 'How does this one get done?',
      hint: 'Nobody is named to write to and there is no playbook; say who it goes to.',
    };
  }
  // Reached with somebody to write to, or with only a playbook the desk may not run yet.
  const prep = row.contact_email
    ? `the desk can write to ${who}`
    : 'the desk has a playbook for it but is not allowed to run it';
  return { type: 'prepare', label: 'Prepare this', hint: `Nothing is drafted yet; ${prep}. ${due}.` };
}

export function toWorkItem(input: DeriveInput): WorkItem {
  const { row, today } = input;
  return {
    id: row.id,
    title: row.title,
    detail: row.detail,
    kind: row.kind,
    status: storedStatus(row.status),
    due_date: row.due_date,
    days_to_due: daysToDue(row.due_date, today),
    overdue: isOverdue(row.due_date, today),
    priority: row.priority,
    waiting_on: row.waiting_on,
    days_waiting: daysWaiting(row, today, input.timezone),
    last_error: row.last_error,
    action: deriveAction(input),
    permission: storedClass(row.class),
    allowed: isAllowed(row.class, input.grants),
    has_draft: input.hasDraft,
  };
}

/** The label of `own`: take the row, do it (the owner took it), or follow it up with whoever has it. */
function ownLabel(assignee: string | null): string {
  return assignee === null ? 'Assign to me' : assignee === OWNER ? 'Yours to do' : `Check with ${assignee}`;
}
