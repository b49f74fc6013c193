import { oneLine } from '../text.ts';
import { composeDraft, MAX_NOTES } from './compose.ts';
import { dateOfStored } from '../dates.ts';
import { findWork } from '../../store/repositories/work.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import type { ActivityRow, WorkRow } from '../../store/schema.ts';
import { actorName, type DeskContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';
import {
  draftOn,
  insertActivity,
  lastReceivedOn,
  lastSentOn,
  recentNotes,
  unsentOn,
  withdrawDraft,
} from '../../store/repositories/activity.ts';
import { arrangementName, unitName } from '../../store/repositories/names.ts';
import type { DraftAnswer } from '../contract/work.ts';
import { SEND_NOT_KNOWN, sendState } from './unsettled.ts';
import { isAllowed } from './derive.ts';
import { sameAddress } from '../mail/address.ts';
import { grantsOf } from '../../store/repositories/desks.ts';

export type { DraftAnswer } from '../contract/work.ts';

// POST /work/{id}/draft: guarantees a draft exists. A row that already has one gets it back
// unchanged; the desk never re-drafts (D15). It declines, with a reason a person can read,
// when nobody on the row can be written to or the row is finished.

export const SENDING =
  "Another request is sending this row's message right now, so the desk did not draft another. Read the row again once that send has finished.";

/** The newest message on the row in state `drafted`, if any. */
export async function newestDraft(ctx: DeskContext, workId: number): Promise<ActivityRow | undefined> {
  return draftOn(ctx.db, ctx.desk.id, workId);
}

function shown(m: ActivityRow): DraftAnswer {
  return { drafted: true, channel: m.channel, subject: m.subject ?? '', body: m.body, to: m.to_address ?? '' };
}

async function loadFacts(ctx: DeskContext, row: WorkRow): Promise<{ about: string | null; notes: string[] }> {
  let about = await arrangementName(ctx.db, ctx.desk.id, row.arrangement_id);
  const notes =
    row.arrangement_id === null
      ? []
      : (await recentNotes(ctx.db, ctx.desk.id, row.arrangement_id, MAX_NOTES)).map((n) => n.body);
  if (about === null) about = await unitName(ctx.db, ctx.desk.id, row.unit_id);
  return { about, notes };
}

async function decline(ctx: DeskContext, row: WorkRow, reason: string): Promise<DraftAnswer> {
  await logEvent(ctx, 'draft_declined', `Declined to draft for "${row.title}".`, {
    work_id: row.id,
    reason,
    by: actorName(ctx.actor),
  });
  return { drafted: false, reason };
}

/** A message composed from the row's facts, as the desk writes one. */
async function freshDraft(ctx: DeskContext, row: WorkRow, email: string) {
  const facts = await loadFacts(ctx, row);
  const thread = row.waiting_on ? await lastSentOn(ctx.db, ctx.desk.id, row.id) : undefined;
  const reply = row.replied_at ? await lastReceivedOn(ctx.db, ctx.desk.id, row.id) : undefined;
  return composeDraft({
    title: row.title,
    permission: row.class,
    due_date: row.due_date,
    today: ctx.today(),
    contact_name: row.contact_name,
    contact_email: email,
    waiting_on: row.waiting_on,
    waiting_since: row.waiting_since && dateOfStored(ctx.desk.timezone, row.waiting_since),
    about: facts.about,
    notes: facts.notes,
    signature: ctx.desk.name,
    replying_to: thread?.subject ?? null,
    answering: reply?.subject ?? null,
    answered_by: repliedBySomebodyElse(row, reply?.from_address ?? null, email) ? row.replied_by : null,
  });
}

/**
 * A reply written by somebody other than the contact: from another address, under another
 * name. The contact writing from a second address of theirs, or under a fuller name from their
 * own, is still the contact; a reply kept with no address (read before addresses were kept) is
 * taken as theirs.
 */
function repliedBySomebodyElse(row: WorkRow, fromAddress: string | null, email: string): boolean {
  if (!fromAddress || sameAddress(fromAddress, email)) return false;
  const said = (s: string | null) => s?.trim().toLowerCase() ?? '';
  return said(row.replied_by) !== said(row.contact_name);
}

/** Who the desk writes to on a row, or null when it names nobody: without one, no draft. */
export function addressOf(row: Pick<WorkRow, 'contact_email'>): string | null {
  return row.contact_email?.trim() || null;
}

export async function draftWork(ctx: DeskContext, workId: number): Promise<DraftAnswer> {
  return (await draftRow(ctx, workId)).answer;
}

/**
 * The same drafting, saying which message this call wrote: null when the row already had one
 * (a person's, say, drafted a moment before), which a run that fails to send must leave as it is.
 */
export async function draftRow(
  ctx: DeskContext,
  workId: number,
): Promise<{ answer: DraftAnswer; wrote: number | null }> {
  const wrote = { id: null as number | null };
  const answer = await atomically(ctx, (tx) => draftIn(tx, workId, wrote));
  return { answer, wrote: wrote.id };
}

async function draftIn(ctx: DeskContext, workId: number, wrote: { id: number | null }): Promise<DraftAnswer> {
  await lockRow(ctx, workId);
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);

  const existing = await newestDraft(ctx, row.id);
  if (isFinished(row.status)) {
    return decline(ctx, row, `This row is already ${row.status}; there is nothing left to write.`);
  }
  if (existing) return shown(existing);
  // A message another call is sending right now would be drafted again behind it, and could
  // then be sent twice (D14, P-writes-9).
  const sending = await sendState(ctx, row.id);
  if (sending === 'sending') return decline(ctx, row, SENDING);
  if (sending === 'not_known') return decline(ctx, row, SEND_NOT_KNOWN);

  const email = addressOf(row);
  if (!email) {
    // A row with a playbook and nobody to write to is done by following the playbook, once its
    // class is granted (D10: until then its action is prepare).
    const granted = row.playbook_id !== null && isAllowed(row.class, await grantsOf(ctx.db, ctx.desk.id));
    const why =
      row.playbook_id === null
        ? 'Nobody on this row can be written to. Say who it goes to, and the desk can draft it.'
        : granted
          ? `Nobody on this row can be written to; it is done by following its playbook, which the desk may run now ("${row.class}" is granted): run it instead.`
          : `Nobody on this row can be written to; it is done by following its playbook, which the desk may run once ${row.class ? `"${row.class}" is granted` : 'the row has a class of work that is granted'}.`;
    return decline(ctx, row, why);
  }

  // After a failed send the message is drafted again as it was approved, owner's edits and
  // all, to whoever the row now names: what failed was the sending, not the words.
  const unsent = row.last_error ? await unsentOn(ctx.db, ctx.desk.id, row.id) : undefined;
  const draft = unsent
    ? { channel: 'email' as const, subject: oneLine(unsent.subject ?? ''), body: unsent.body, to: email }
    : await freshDraft(ctx, row, email);

  const now = ctx.now();
  const mine = await insertActivity(ctx.db, {
    deskId: ctx.desk.id,
    kind: 'message',
    workId: row.id,
    arrangementId: row.arrangement_id,
    channel: draft.channel,
    direction: 'outbound',
    subject: draft.subject,
    body: draft.body,
    to: draft.to,
    status: 'drafted',
    actor: 'desk',
    at: now,
  });

  // Two drafts racing on one row: the oldest drafted message wins and the other is withdrawn,
  // so the row never carries two prepared messages.
  const first = await draftOn(ctx.db, ctx.desk.id, row.id, 'oldest');
  if (first && first.id !== mine.id) {
    await withdrawDraft(ctx.db, mine.id);
    return shown(first);
  }

  const who = row.contact_name ? `${row.contact_name} <${email}>` : email;
  await logEvent(ctx, 'drafted', `Drafted a message to ${who} for "${row.title}".`, {
    work_id: row.id,
    activity_id: mine.id,
    to: email,
    by: actorName(ctx.actor),
  });
  await logTimeline(ctx, row.id, 'drafted', `The desk drafted "${draft.subject}" to ${who}.`);
  wrote.id = mine.id;
  return shown(mine);
}
