import { findWork, moveWork, updateWork } from '../../store/repositories/work.ts';
import { unsentOn } from '../../store/repositories/activity.ts';
import type { WorkRow } from '../../store/schema.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import { actorOf, type DeskContext } from '../context.ts';
import { NOTE_MAX_CHARS, ownersNoteFits } from '../arrangements/note.ts';
import { cutAt } from '../text.ts';
import { detailWithNote, noteFits } from '../limits.ts';
import { notFound } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished, storedStatus } from '../vocab.ts';
import { newestDraft } from './draft.ts';
import { IN_FLIGHT, sendDraft } from './send.ts';
import { SEND_NOT_KNOWN, sendState } from './unsettled.ts';
import type { CompleteAnswer } from '../contract/work.ts';
import { afterStep, closedOn } from './step-done.ts';
import { runUnderWay } from './under-way.ts';
import type { Seen } from './seen.ts';
import { nothingChanged } from './acted.ts';

// POST /work/{id}/complete: send the newest drafted message, if any, then move the row to
// `waiting` when it is out with somebody, else to `done` (contract procedure, D12, D13).

export type { CompleteAnswer } from '../contract/work.ts';

export interface CompleteInput {
  note?: string;
  actor?: string;
  /**
   * The caller was shown no prepared message (the screen draws "Mark done" only then): one
   * prepared since is not sent unread, and nothing is done (P-screen-work-4).
   */
  noDraftSeen?: boolean;
  /**
   * The caller was shown a prepared message and approved it ("Approve and send"): with none
   * prepared any more (the desk sent it meanwhile), nothing is marked done by hand (P-screen-3).
   */
  draftSeen?: boolean;
  /**
   * The prepared message as the caller was shown it and approved it: one changed since, up to
   * its claim for sending, is put back unsent, and nothing is done (P-screen-work-6).
   */
  seen?: Seen;
  /** Told as the prepared message leaves for the mail server: a person waiting is told why. */
  onSending?: (message: { subject: string; to: string }) => void;
}

export const NOTHING_TO_APPROVE =
  'No message is waiting for approval on this row any more: it was sent or withdrawn after this page was drawn. Nothing was done.';

export const PREPARED_SINCE =
  'A message was prepared on this row since this page was drawn, so nothing was sent or marked done. Read it, then approve it, or close the row without sending it.';

function answer(row: WorkRow, failed: boolean, delivered: boolean, note: string): CompleteAnswer {
  return {
    id: row.id,
    status: storedStatus(row.status),
    waiting_on: row.waiting_on,
    failed,
    delivered,
    delivery_note: note,
  };
}

/**
 * The detail with the note as its last paragraph. When the row came to this complete with a
 * failed send on it (its `last_error`), a retry bringing the same note finds it already there
 * and does not append it twice (P-writes-8); otherwise a note is always appended, even one
 * said before. Once this call has handed a message to the mail server (`sent`), a detail
 * edited meanwhile to leave no room does not undo what the send did: the note is kept in the
 * row's history alone (P-complete-2).
 */
function withNote(
  detail: string | null,
  note: string | null,
  afterFailure: boolean,
  sent = false,
): { detail: string | null; leftOut: boolean } {
  const already = detail === note || (detail ?? '').endsWith(`\n\n${note}`);
  if (!note || (afterFailure && already)) return { detail, leftOut: false };
  if (sent && !noteFits(detail, note)) return { detail, leftOut: true };
  return { detail: detailWithNote(detail, note), leftOut: false };
}

/** How the history gives a note the row's detail had no room for, the one place it is kept. */
const NO_ROOM = "kept here only: the row's detail had no room left for it";

async function keepNote(
  ctx: DeskContext,
  row: WorkRow,
  note: string | null,
  afterFailure: boolean,
  actor: string,
  sent = false,
): Promise<WorkRow> {
  const { detail, leftOut } = withNote(row.detail, note, afterFailure, sent);
  const who = actor === 'desk' ? 'The desk' : actor;
  if (leftOut) await logTimeline(ctx, row.id, 'noted', `${who} added a note (${NO_ROOM}): ${note}`);
  if (detail === row.detail) return row;
  await updateWork(ctx.db, ctx.desk.id, row.id, { detail, updated_at: ctx.now() });
  // The row's detail changed: its history says so, and who, as a completion's line does.
  await logTimeline(ctx, row.id, 'noted', `${who} added a note: ${note}`);
  return (await findWork(ctx.db, ctx.desk.id, row.id)) ?? row;
}

const alreadyFinished = (status: string) => nothingChanged('This row', `is already ${status}`);

/** Settling found a message drafted since this call looked: it starts again, and sends that one. */
const AGAIN = Symbol('again');

export async function completeWork(
  ctx: DeskContext,
  workId: number,
  input: CompleteInput = {},
): Promise<CompleteAnswer> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const done = await completeOnce(ctx, workId, input);
    if (done !== AGAIN) return done;
  }
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);
  return answer(row, false, false, DRAFTED_MEANWHILE);
}

export const RUN_UNDER_WAY =
  'The desk is working on this row right now (a run is under way), so nothing was sent or marked done. Complete it again once the run has finished, if it is still open.';

export const NOT_RECORDED =
  'The row could not be moved on afterwards (the change was not saved), so its status is as it was; complete it again to record this step (nothing is sent again).';

const DRAFTED_MEANWHILE =
  'Other requests kept drafting messages on this row while it was being completed; nothing was changed. Complete it again to send the newest.';

async function completeOnce(
  ctx: DeskContext,
  workId: number,
  input: CompleteInput,
): Promise<CompleteAnswer | typeof AGAIN> {
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);
  const actor = actorOf(ctx, input.actor);
  // A program's note has the same cut as an arrangement's (P-writes-13); the owner's, typed on
  // the screen or the command line, is refused past it rather than cut unsaid (P-text-1).
  ownersNoteFits(ctx, input.note, 'note');
  const note = cutAt(input.note ?? '', NOTE_MAX_CHARS) || null;
  // A failed send before this call: a retry may bring the note it already appended.
  const afterFailure = row.last_error !== null;

  if (isFinished(row.status)) return answer(row, false, false, alreadyFinished(row.status));
  // The run decides the row's end: a complete now would do the work a second time (P-complete-3).
  if (await runUnderWay(ctx, row.id)) return answer(row, false, false, RUN_UNDER_WAY);
  // A note the row's detail has no room for is refused before anything is sent.
  withNote(row.detail, note, afterFailure);

  // What a send said; null when nothing was sent and the work is recorded as done by hand.
  let deliveryNote: string | null = null;
  let delivered = false;
  const draft = await newestDraft(ctx, row.id);
  if (draft && input.noDraftSeen) return answer(row, false, false, PREPARED_SINCE);
  if (!draft && input.draftSeen) return answer(row, false, false, NOTHING_TO_APPROVE);
  if (draft) {
    const failed: { row?: WorkRow } = {};
    const sent = await sendDraft(ctx, row, draft, {
      actor,
      seen: input.seen,
      onSending: input.onSending,
      // Step 5 appends the note whatever the delivery did: the owner's words are not lost. In
      // the failure's own transaction, so no other call closes the row between the two.
      onFailure: async (tx) => {
        const now = (await findWork(tx.db, tx.desk.id, row.id)) ?? row;
        failed.row = await keepNote(tx, now, note, afterFailure, actor, true);
      },
    });
    if (sent.failed) return answer(failed.row ?? row, true, false, sent.note);
    if (sent.skipped) {
      const now = (await findWork(ctx.db, ctx.desk.id, row.id)) ?? row;
      return answer(now, false, false, sent.note);
    }
    delivered = sent.delivered;
    deliveryNote = sent.note;
  }

  // The row as sending left it; compare-and-set on its status so a racing writer wins cleanly.
  // The status move, the event and the timeline entry are one transaction; the send before
  // it is not, since a transaction must never be held open across a mail server's answer.
  for (let attempt = 0; attempt < 3; attempt++) {
    let settled: Awaited<ReturnType<typeof settle>>;
    try {
      settled = await atomically(ctx, (tx) =>
        settle(tx, row.id, { actor, note, afterFailure, delivered, deliveryNote }),
      );
    } catch (err) {
      // The message went: a fault recording the step after it must not read as an error, which
      // a client retries with its key, to be told nothing was sent (P-complete-4).
      if (deliveryNote === null) throw err;
      const now = await findWork(ctx.db, ctx.desk.id, row.id).catch(() => {
        throw err;
      });
      return answer(now ?? row, false, delivered, `${deliveryNote} ${NOT_RECORDED}`);
    }
    if (settled) return settled;
  }
  const last = (await findWork(ctx.db, ctx.desk.id, row.id)) ?? row;
  return answer(last, false, delivered, deliveryNote ?? byHand(false, last.status === 'waiting'));
}

/**
 * What complete says when it sent nothing. A row still out with somebody is not done, so only
 * the step was. After a failed send, a caller retrying it with complete must learn that the
 * message did not go: D13 has draft prepare it again.
 */
function byHand(failedBefore: boolean, waiting: boolean): string {
  const recorded = `${waiting ? 'this step' : 'the work'} was recorded as done by hand.`;
  return failedBefore
    ? `Nothing was sent: the message that failed before is not sent again by complete (draft prepares it afresh); ${recorded}`
    : `There was no prepared message; ${recorded}`;
}

/** One try at closing the row; null when another writer moved it first. */
async function settle(
  ctx: DeskContext,
  workId: number,
  c: {
    actor: string;
    note: string | null;
    afterFailure: boolean;
    delivered: boolean;
    deliveryNote: string | null;
  },
): Promise<CompleteAnswer | typeof AGAIN | null> {
  const { actor, note, delivered, deliveryNote } = c;
  await lockRow(ctx, workId);
  const current = await findWork(ctx.db, ctx.desk.id, workId);
  if (!current) throw notFound('work item', workId);
  // Another complete finished it first: this one changed nothing, unless it sent the message.
  if (isFinished(current.status))
    return answer(
      current,
      false,
      delivered,
      delivered && deliveryNote ? deliveryNote : alreadyFinished(current.status),
    );
  // Under the lock, with nothing sent by this call: a message drafted since it looked is sent by
  // starting again, and one another call is sending keeps the row open, since closing it now
  // would race the send that decides whether it is waiting or done (P-writes-3). After a send of
  // its own, the row's own step is what closes.
  // A send that failed since this call first looked (another call's, under this lock now) put
  // the note there already, as a failure before the call would have.
  const afterFailure = c.afterFailure || current.last_error !== null;
  let failedBefore = false;
  if (deliveryNote === null) {
    if (await newestDraft(ctx, workId)) return AGAIN;
    const sending = await sendState(ctx, workId);
    if (sending === 'sending') return answer(current, false, false, IN_FLIGHT);
    if (await runUnderWay(ctx, workId)) return answer(current, false, false, RUN_UNDER_WAY);
    // As after a send of its own that failed: the row stays open needing a look, with the note.
    if (sending === 'not_known') {
      const now = (await findWork(ctx.db, ctx.desk.id, workId)) ?? current;
      return answer(await keepNote(ctx, now, note, afterFailure, actor), true, false, SEND_NOT_KNOWN);
    }
    failedBefore = current.last_error !== null && (await unsentOn(ctx.db, ctx.desk.id, workId)) !== undefined;
  }
  const to = afterStep(current);
  const now = ctx.now();
  // After a send of its own, the detail's room is not checked again: the message went (P-complete-2).
  const sent = deliveryNote !== null;
  const { detail, leftOut } = withNote(current.detail, note, afterFailure, sent);
  const patch = {
    detail,
    last_error: null,
    replied_by: null,
    replied_at: null,
    updated_at: now,
    ...closedOn(to, now),
  };
  if (current.status === to) {
    await updateWork(ctx.db, ctx.desk.id, current.id, patch);
  } else if (!(await moveWork(ctx.db, ctx.desk.id, current.id, current.status, to, patch))) {
    return null;
  }
  const who = actor === 'desk' ? 'The desk' : actor;
  const text =
    to === 'waiting' ? `${who} completed this step; now waiting on ${current.waiting_on}.` : `${who} marked this done.`;
  await logEvent(
    ctx,
    'completed',
    `Completed "${current.title}"${to === 'waiting' ? `, waiting on ${current.waiting_on}` : ''}.`,
    { work_id: current.id, status: to, delivered, actor },
  );
  const noted = !note ? '' : leftOut ? ` Note (${NO_ROOM}): ${note}` : ` Note: ${note}`;
  await logTimeline(ctx, current.id, 'completed', `${text}${noted}`);
  const after = (await findWork(ctx.db, ctx.desk.id, current.id))!;
  return answer(after, false, delivered, deliveryNote ?? byHand(failedBefore, to === 'waiting'));
}
