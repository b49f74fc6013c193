import { reviseDraftText } from '../../store/repositories/activity.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import { findWork } from '../../store/repositories/work.ts';
import { actorName, type DeskContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { logTimeline } from '../record.ts';
import { MESSAGE_MAX } from '../limits.ts';
import { isFinished } from '../vocab.ts';
import { breaksLine, closeDirections, longerThan, oneLine, sameAsDrawn, sentBackFromOneLine } from '../text.ts';
import { completeWork, NOTHING_TO_APPROVE, type CompleteAnswer } from './complete.ts';
import { newestDraft } from './draft.ts';
import { CHANGED_SINCE, changedSinceSeen, type Seen } from './seen.ts';

// The owner edits the prepared message before approving it ("Approve and send" on the screen).
// Only a message still in `drafted` can change; what was sent is never rewritten. A refused
// value names its field, so the screen can say what to fix beside it, and writes nothing.

export interface ReviseInput {
  subject?: unknown;
  body?: unknown;
  /**
   * What the owner's page showed (the screen's form carries it): a field sent back as it was
   * drawn is no edit. The message changed since in such a field, or in its address, which the
   * page shows and no field changes, is not the one the owner read, and is left as it is
   * (P-screen-work-6).
   */
  drawn?: Seen;
}

/**
 * What a revision did: `edited` when the owner's text was written, and `message`, the draft as
 * it then stands (none on a finished row or with no draft); or `unseen` when the draft was
 * changed since the owner's page showed it, and nothing was written.
 */
export type Revision = { edited: boolean; message?: Required<Seen> } | { unseen: true };

const ONE_LINE = 'The subject is one line: it holds a line break or another control character.';

/** The field's text, trimmed and its directions closed as every kept text's are, or why it is refused. */
function checked(raw: unknown, name: 'subject' | 'body', max: number): { text: string } | { error: string } {
  const v = typeof raw === 'string' ? closeDirections(raw.trim()) : '';
  if (v === '') return { error: `The ${name} must not be empty.` };
  if (longerThan(v, max)) return { error: `The ${name} is longer than ${max.toLocaleString('en')} characters.` };
  if (v.includes('\u0000')) return { error: `The ${name} contains a NUL character, which the desk cannot store.` };
  return { text: v };
}

/** Both fields' text, or every refusal at once, each named by its field. */
function fieldsOf(input: ReviseInput): { subject: string; body: string } {
  const subject = checked(input.subject, 'subject', MESSAGE_MAX.subject);
  const body = checked(input.body, 'body', MESSAGE_MAX.body);
  const errors: Record<string, string> = {};
  if ('error' in subject) errors.subject = subject.error;
  if ('error' in body) errors.body = body.error;
  const [first] = Object.keys(errors);
  if (first) throw badRequest(errors[first]!, { field: first, fields: errors });
  return { subject: (subject as { text: string }).text, body: (body as { text: string }).text };
}

/** Rewrites the subject and body of the row's newest draft. */
export async function reviseDraft(ctx: DeskContext, workId: number, input: ReviseInput): Promise<Revision> {
  const typed = fieldsOf(input);
  const untouched = (field: 'subject' | 'body') => {
    const drawn = input.drawn?.[field];
    return drawn !== undefined && sameAsDrawn(typed[field], drawn);
  };
  return atomically(ctx, async (tx) => {
    await lockRow(tx, workId);
    const row = await findWork(tx.db, tx.desk.id, workId);
    if (!row) throw notFound('work item', workId);
    if (isFinished(row.status)) return { edited: false };
    const draft = await newestDraft(tx, row.id);
    // Text is kept trimmed, so a message sent back with only its outer spaces or final line
    // break gone is the desk's own message, left as it was.
    if (!draft) return { edited: false };
    // A field the owner changed is theirs, whatever the draft says now; one left as shown approves
    // what was shown, and so does the address.
    const shown: Seen = {
      to: input.drawn?.to,
      subject: untouched('subject') ? input.drawn?.subject : undefined,
      body: untouched('body') ? input.drawn?.body : undefined,
    };
    if (changedSinceSeen(draft, shown)) return { unseen: true };
    const standing = (subject: string | null, body: string) => ({
      to: draft.to_address ?? '',
      subject: subject ?? '',
      body,
    });
    // A subject drafted over two lines (a business file's, an earlier version's) is shown on one,
    // and a one-line box may also drop its line breaks: either way back, it is no rewrite.
    const drafted = (draft.subject ?? '').trim();
    const subject = untouched('subject') ? drafted : typed.subject;
    const body = untouched('body') ? draft.body.trim() : typed.body;
    const same = subject === drafted || subject === oneLine(drafted) || sentBackFromOneLine(subject, drafted);
    if (same && draft.body.trim() === body) return { edited: false, message: standing(draft.subject, draft.body) };
    // The subject is one header line; the body may have as many lines as it likes.
    if (!same && breaksLine(subject)) throw badRequest(ONE_LINE, { field: 'subject', fields: { subject: ONE_LINE } });
    await reviseDraftText(tx.db, tx.desk.id, draft.id, same ? drafted : subject, body);
    await logTimeline(
      tx,
      row.id,
      'draft_edited',
      `${actorName(tx.actor)} edited the prepared message before approving it.`,
    );
    return { edited: true, message: standing(same ? drafted : subject, body) };
  });
}

/**
 * "Approve and send": the owner's text of the prepared message, then its send, as completing
 * the row sends it. With no message prepared any more (a page drawn before the desk sent it)
 * nothing is done: completing would mark the row done by hand, which is not what was pressed.
 * Nor with a message changed since the page showed it, up to the moment it is sent.
 */
export async function approveDraft(
  ctx: DeskContext,
  workId: number,
  input: ReviseInput,
): Promise<CompleteAnswer | { approved: false; reason: string }> {
  if (!(await newestDraft(ctx, workId))) {
    if (!(await findWork(ctx.db, ctx.desk.id, workId))) throw notFound('work item', workId);
    return { approved: false, reason: NOTHING_TO_APPROVE };
  }
  const revised = await reviseDraft(ctx, workId, input);
  if ('unseen' in revised) return { approved: false, reason: CHANGED_SINCE };
  // Sent by the desk since the look above, it is not then marked done by hand.
  const done = await completeWork(ctx, workId, { draftSeen: true, seen: revised.message });
  return !done.delivered && (done.delivery_note === NOTHING_TO_APPROVE || done.delivery_note === CHANGED_SINCE)
    ? { approved: false, reason: done.delivery_note }
    : done;
}
