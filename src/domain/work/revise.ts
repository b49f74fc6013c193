import { reviseDraftText } from '../../store/repositories/activity.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import { findWork } from '../../store/repositories/work.ts';
import { actorName, type DeskContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';
import { breaksLine, closeDirections, longerThan, oneLine, sameAsDrawn, sentBackFromOneLine } from '../text.ts';
import { completeWork, NOTHING_TO_APPROVE, type CompleteAnswer } from './complete.ts';
import { newestDraft } from './draft.ts';

// The owner edits the prepared message before approving it ("Approve and send" on the screen).
// Only a message still in `drafted` can change; what was sent is never rewritten. A refused
// value names its field, so the screen can say what to fix beside it, and writes nothing.

export const SUBJECT_MAX_CHARS = 300;
export const BODY_MAX_CHARS = 20_000;

export interface ReviseInput {
  subject?: unknown;
  body?: unknown;
  /**
   * The text the owner's page showed (the screen's form carries it): a field sent back as it was
   * drawn is no edit, and keeps what the draft holds now, which another writer may have changed
   * since (a contact's name corrected, whose greeting the draft then took).
   */
  drawn?: { subject?: string; body?: string };
}

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
  const subject = checked(input.subject, 'subject', SUBJECT_MAX_CHARS);
  const body = checked(input.body, 'body', BODY_MAX_CHARS);
  const errors: Record<string, string> = {};
  if ('error' in subject) errors.subject = subject.error;
  if ('error' in body) errors.body = body.error;
  const [first] = Object.keys(errors);
  if (first) throw badRequest(errors[first]!, { field: first, fields: errors });
  return { subject: (subject as { text: string }).text, body: (body as { text: string }).text };
}

/** Rewrites the subject and body of the row's newest draft; true when something changed. */
export async function reviseDraft(ctx: DeskContext, workId: number, input: ReviseInput): Promise<boolean> {
  const typed = fieldsOf(input);
  const untouched = (field: 'subject' | 'body') => {
    const drawn = input.drawn?.[field];
    return drawn !== undefined && sameAsDrawn(typed[field], drawn);
  };
  return atomically(ctx, async (tx) => {
    await lockRow(tx, workId);
    const row = await findWork(tx.db, tx.desk.id, workId);
    if (!row) throw notFound('work item', workId);
    if (isFinished(row.status)) return false;
    const draft = await newestDraft(tx, row.id);
    // Text is kept trimmed, so a message sent back with only its outer spaces or final line
    // break gone is the desk's own message, left as it was.
    if (!draft) return false;
    // A subject drafted over two lines (a business file's, an earlier version's) is shown on one,
    // and a one-line box may also drop its line breaks: either way back, it is no rewrite.
    const drafted = (draft.subject ?? '').trim();
    const subject = untouched('subject') ? drafted : typed.subject;
    const body = untouched('body') ? draft.body.trim() : typed.body;
    const same = subject === drafted || subject === oneLine(drafted) || sentBackFromOneLine(subject, drafted);
    if (same && draft.body.trim() === body) return false;
    // The subject is one header line; the body may have as many lines as it likes.
    if (!same && breaksLine(subject)) throw badRequest(ONE_LINE, { field: 'subject', fields: { subject: ONE_LINE } });
    await reviseDraftText(tx.db, tx.desk.id, draft.id, same ? drafted : subject, body);
    await logTimeline(
      tx,
      row.id,
      'draft_edited',
      `${actorName(tx.actor)} edited the prepared message before approving it.`,
    );
    return true;
  });
}

/**
 * "Approve and send": the owner's text of the prepared message, then its send, as completing
 * the row sends it. With no message prepared any more (a page drawn before the desk sent it)
 * nothing is done: completing would mark the row done by hand, which is not what was pressed.
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
  await reviseDraft(ctx, workId, input);
  // Sent by the desk since the look above, it is not then marked done by hand.
  const done = await completeWork(ctx, workId, { draftSeen: true });
  return !done.delivered && done.delivery_note === NOTHING_TO_APPROVE
    ? { approved: false, reason: NOTHING_TO_APPROVE }
    : done;
}
