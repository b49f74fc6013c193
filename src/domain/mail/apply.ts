import { findWork, moveWork, updateWork } from '../../store/repositories/work.ts';
import { insertActivity, markSentAfterAll } from '../../store/repositories/activity.ts';
import { markBounced, sentOnRowAfter, sentToWaiting, sentUnderIds } from '../../store/repositories/mail.ts';
import { lockRow } from '../../store/tx.ts';
import type { DeskContext } from '../context.ts';
import { clipped } from '../text.ts';
import type { ParsedMail } from '../ports.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';
import { answeredSubject, baseSubject, bounceOf, isAutomatic, isReport, keptMessageId, namedIds } from './classify.ts';
import { isDeskMessageId, storedFormOf } from '../work/message-id.ts';
import { sameAddress } from './address.ts';

// What one message from the mailbox does to the desk, inside the caller's transaction. A
// message is the desk's business only when it answers something the desk sent (P-mail-2):
// threaded on a Message-ID the desk made, or from the address a row waits on with `Re:` the
// subject the desk sent it within 90 days (or an automatic answer's own words before it).
// Anything else is left alone.

export type MailOutcome = 'reply' | 'auto_reply' | 'bounce' | 'unrelated';

export interface MatchedMail {
  work_id: number;
  kind: Exclude<MailOutcome, 'unrelated'>;
  from: string;
  subject: string;
}

const SUBJECT_DAYS = 90;
const BODY_LIMIT = 100_000;

interface SentMessage {
  id: number;
  obligation_id: number | null;
  to_address: string | null;
  subject: string | null;
  status: string;
  sent_at: string | null;
  approved_at?: string | null;
  failure_reason?: string | null;
}

/** Text from outside, fit for one line of the desk's own record. */
function oneLine(text: string, max = 120): string {
  const clean = text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clipped(clean, max);
}

async function matchSent(ctx: DeskContext, mail: ParsedMail): Promise<SentMessage | null> {
  const ids = namedIds(mail);
  const threaded = await sentUnderIds(ctx.db, ctx.desk.id, ids);
  if (threaded) return threaded;
  // Threaded on a message a desk sent, and not this one: another desk that shares the mailbox
  // wrote it, and sender and subject must not make it this desk's too.
  if (ids.some(isDeskMessageId)) return null;
  const answered = answeredSubject(mail);
  if (!mail.fromAddress || answered === null) return null;
  const since = new Date(ctx.clock.now().getTime() - SUBJECT_DAYS * 86_400_000).toISOString();
  const wanted = baseSubject(answered);
  const candidates = await sentToWaiting(ctx.db, ctx.desk.id, mail.fromAddress, since);
  return candidates.find((c) => c.subject !== null && baseSubject(c.subject) === wanted && after(c, mail)) ?? null;
}

/** How far the mail server's clock may be behind the desk's when it stamps a message's arrival. */
const ARRIVAL_SLACK_MS = 10 * 60_000;

/**
 * Matched by sender and subject alone, a message that reached the mailbox before the desk's
 * went cannot answer it: old mail read when a mailbox is first read, or mail a desk sharing the
 * mailbox was set up after. Only a message the desk sent itself (it has the desk's Message-ID)
 * has a known moment; one a business file brought in went on a day, or before the import.
 */
function after(c: { sent_at: string | null; message_id: string | null }, mail: ParsedMail): boolean {
  if (!mail.arrivedAt || !c.sent_at || c.message_id === null) return true;
  return Date.parse(c.sent_at) - ARRIVAL_SLACK_MS <= Date.parse(mail.arrivedAt);
}

/** How far before the message it answers a reply's date may be, for senders' clocks that are off. */
const CLOCK_SLACK_MS = 86_400_000;

/**
 * The instant a message says it was written, unless it claims to come from the future or from
 * well before the message it answers (a sender's clock that is wrong): then when the desk read it.
 */
function writtenAt(ctx: DeskContext, mail: ParsedMail, answered: string | null): string {
  const now = ctx.now();
  // Compared as instants: a year past 9999 is written `+010000-…`, which sorts before `2026-…`
  // as text, and is no date the desk can keep.
  if (!mail.date || !/^\d{4}-/.test(mail.date)) return now;
  const written = Date.parse(mail.date);
  if (!(written <= Date.parse(now))) return now;
  const earliest = answered === null ? null : Date.parse(answered) - CLOCK_SLACK_MS;
  return earliest !== null && written < earliest ? now : mail.date;
}

/**
 * `own` holds the addresses the desk's mailboxes send as: mail from one of them is the business
 * writing, not the contact answering.
 */
export async function applyMail(
  ctx: DeskContext,
  mail: ParsedMail,
  own: ReadonlySet<string> = new Set(),
): Promise<MatchedMail | null> {
  const bounce = bounceOf(mail);
  if (bounce) {
    const sent = await sentUnderIds(
      ctx.db,
      ctx.desk.id,
      bounce.messageId ? [storedFormOf(bounce.messageId)] : namedIds(mail),
    );
    return sent?.obligation_id ? applyBounce(ctx, sent, bounce.recipient, bounce.reason, mail) : null;
  }
  // A delivery delayed or relayed, a read receipt: the message is on its way or was opened,
  // and nobody answered it. The wait goes on.
  if (isReport(mail)) return null;
  // A message this desk sent, read back (a copy of its own chase, threaded on its first
  // message), answers nothing. Known by its own Message-ID being one the desk sent: another
  // business's desk answering is a reply like any other.
  if (mail.messageId && (await sentUnderIds(ctx.db, ctx.desk.id, [storedFormOf(mail.messageId)]))) return null;
  // Nor does a message the business wrote itself on the thread: the owner following up by hand
  // from their own mail program, with a copy filed where the desk reads. The wait goes on.
  if (mail.fromAddress && own.has(mail.fromAddress)) return null;
  const sent = await matchSent(ctx, mail);
  if (!sent?.obligation_id) return null;
  await lockRow(ctx, sent.obligation_id);
  const row = await findWork(ctx.db, ctx.desk.id, sent.obligation_id);
  if (!row) return null;
  const who = oneLine(mail.fromName ?? mail.fromAddress ?? 'Somebody');
  const subject = oneLine(mail.subject, 200);

  if (isAutomatic(mail)) {
    const still = row.waiting_on ? ` The desk is still waiting on ${row.waiting_on}.` : '';
    await logTimeline(ctx, row.id, 'auto_reply', `${who}'s mailbox answered on its own ("${subject}").${still}`);
    await logEvent(ctx, 'auto_reply', `An automatic answer from ${who} to "${sent.subject ?? ''}".`, {
      work_id: row.id,
      activity_id: sent.id,
    });
    return { work_id: row.id, kind: 'auto_reply', from: who, subject };
  }

  const at = writtenAt(ctx, mail, sent.sent_at);
  const body = mail.headersOnly
    ? 'The message was too large to read; only its headers were read. Open it in the mailbox.'
    : mail.text.slice(0, BODY_LIMIT);
  const message = await insertActivity(ctx.db, {
    deskId: ctx.desk.id,
    kind: 'message',
    channel: 'email',
    direction: 'inbound',
    workId: row.id,
    subject: mail.subject.slice(0, 500),
    body,
    to: null,
    from: mail.fromAddress ? oneLine(mail.fromAddress, 254) : null,
    status: 'received',
    actor: who,
    at: ctx.now(),
    sentAt: at,
    messageId: mail.messageId ? keptMessageId(mail.messageId) : null,
    attachments: mail.attachments.map((a) => ({ name: oneLine(a.name, 200), size: a.size })),
  });
  const now = ctx.now();
  // A reply naming a message whose send ended with no answer from the mail server (it closed
  // the connection after taking it, the process stopped) shows that the message went after all.
  const wentAfterAll = sent.status === 'approved' && sent.sent_at === null && (sent.failure_reason ?? null) !== null;
  if (wentAfterAll) await markSentAfterAll(ctx.db, sent.id, sent.approved_at ?? now);
  const cleared = wentAfterAll && row.last_error === sent.failure_reason ? { last_error: null } : {};
  const patch = { waiting_on: null, waiting_since: null, replied_by: who, replied_at: at, updated_at: now, ...cleared };
  if (isFinished(row.status)) {
    // A late reply to a finished row is kept on it; the row stays finished.
    await updateWork(ctx.db, ctx.desk.id, row.id, { updated_at: now });
  } else if (row.status === 'waiting') {
    await moveWork(ctx.db, ctx.desk.id, row.id, 'waiting', 'open', patch);
  } else {
    await updateWork(ctx.db, ctx.desk.id, row.id, patch);
  }
  const reached = wentAfterAll ? `, so "${oneLine(sent.subject ?? '', 200)}" did reach them` : '';
  await logTimeline(ctx, row.id, 'replied', `${who} replied${reached}.`);
  await logEvent(ctx, 'replied', `${who} replied to "${sent.subject ?? ''}".`, {
    work_id: row.id,
    activity_id: message.id,
    in_answer_to: sent.id,
  });
  return { work_id: row.id, kind: 'reply', from: who, subject };
}

async function applyBounce(
  ctx: DeskContext,
  sent: SentMessage,
  recipient: string | null,
  reason: string,
  mail: ParsedMail,
): Promise<MatchedMail | null> {
  const workId = sent.obligation_id as number;
  await lockRow(ctx, workId);
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) return null;
  const to = oneLine(recipient ?? sent.to_address ?? 'the recipient', 200);
  const error = `Mail to ${to} bounced: ${oneLine(reason, 300)}`;
  // A second report on a message already bounced (mail systems on the way may each send one)
  // goes on the timeline; the message and the row keep the reason the first one gave.
  // A message never recorded as sent (its send got no answer) bounces for the first time too.
  const again = sent.status !== 'sent' && sent.sent_at !== null;
  const now = ctx.now();
  if (!again) await markBounced(ctx.db, sent.id, error, sent.sent_at ?? sent.approved_at ?? now);
  // A report can come days late, after the address was corrected and the message went again:
  // the row then waits on the new message, and telling the owner to correct it would be wrong.
  const later = await sentOnRowAfter(ctx.db, ctx.desk.id, row.id, sent.id);
  const elsewhere =
    later?.to_address && sent.to_address && !sameAddress(later.to_address, sent.to_address)
      ? oneLine(later.to_address, 200)
      : null;
  // A row done after a later message went to the same address (a chase answered, say) was
  // finished by that one, which arrived: it stays done.
  const doneSince = row.status === 'done' && later !== undefined;
  if (elsewhere || again || doneSince) {
    await updateWork(ctx.db, ctx.desk.id, row.id, { updated_at: now });
  } else if (row.status !== 'closed') {
    // The bounced message is kept as it went; what the owner does next is a new draft. A row
    // done with it is not done: the message did not arrive, so the row is open again. One the
    // owner closed stays closed.
    const advice = `${error.replace(/[.!?]$/, '')}. Correct the address on the row, then draft the message again.`;
    const patch = { last_error: advice, waiting_on: null, waiting_since: null, updated_at: now };
    if (row.status === 'waiting' || row.status === 'done')
      await moveWork(ctx.db, ctx.desk.id, row.id, row.status, 'open', {
        ...patch,
        ...(row.status === 'done' ? { closed_at: null } : {}),
      });
    else await updateWork(ctx.db, ctx.desk.id, row.id, patch);
  }
  const left = elsewhere
    ? ` A later message went to ${elsewhere}; the row is left as it was.`
    : !again && row.status === 'done' && !doneSince
      ? ' The row is open again.'
      : '';
  await logTimeline(ctx, row.id, 'bounced', `${error}.${left}`);
  await logEvent(ctx, 'bounced', `"${sent.subject ?? ''}" did not reach ${to}.`, {
    work_id: row.id,
    activity_id: sent.id,
    reason: oneLine(reason, 300),
  });
  const from = oneLine(mail.fromName ?? mail.fromAddress ?? 'the mail system');
  return { work_id: row.id, kind: 'bounce', from, subject: oneLine(mail.subject, 200) };
}
