import { isEmailAddress, namesMoreThanOne } from '../mail/address.ts';
import type { MailConnection } from '../ports.ts';
import { findWork, updateWork } from '../../store/repositories/work.ts';
import type { ActivityRow, WorkRow } from '../../store/schema.ts';
import { actorName, type DeskContext } from '../context.ts';
import { logEvent, logTimeline } from '../record.ts';
import { breaksLine, echoed, oneLine, storedObject } from '../text.ts';
import {
  claimDraft,
  failureOf,
  lastReceivedOn,
  lastSentOn,
  threadIdsOn,
  markSent,
  markUnsent,
  noteMessageId,
  releaseDraft,
  setSentSubject,
  withdrawDraft,
} from '../../store/repositories/activity.ts';
import { connectedMailbox, noteSendFault } from '../../store/repositories/connections.ts';
import { SecretKeyError } from '../../store/cipher.ts';
import { newMessageId } from './message-id.ts';
import { countChase } from './chase-count.ts';
import { sendStaleAt } from './unsettled.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import { senderOf } from '../desks/smtp-settings.ts';
import { CHANGED_SINCE, changedSinceSeen, type Seen } from './seen.ts';

// Sends one drafted message through the desk's connected mailbox, at most once (D14): the
// message is claimed by moving it drafted → approved in one compare-and-set statement, so of
// two concurrent completes or runs only one sends. A provider's acceptance makes it `sent`;
// no mailbox, a refusal or no answer leaves it `approved` with the reason (D13).

export interface SendOutcome {
  delivered: boolean;
  failed: boolean;
  note: string;
  /** True when another call had already claimed this message; nothing was done here. */
  skipped?: boolean;
  /** True when the mail server stopped answering: the message may have gone. */
  unknown?: boolean;
  /** True when the mailbox's server could not be reached or stopped answering (not a refusal). */
  unreachable?: boolean;
  /** Who replied on the row while the message was on its way: the row stays open with that reply to read. */
  heard?: string | null;
  /** The server refused the mailbox itself (its sign-in, its sender): no message through it would go now. */
  refusedMailbox?: boolean;
  /** The server could not be reached, or refused the mailbox, and nothing went: the message and the row are as they were. */
  putBack?: boolean;
  /** The message went, and its bounce was read before the mail server answered the send. */
  bounced?: boolean;
}

/**
 * What the desk on its own does with a message its mail server could not be reached for, when
 * nothing was handed over (P-pass-8): `keep` the draft it sent, or `drop` the one it drafted for
 * this send, so the row is as it was and a later pass sends it. Without it the row needs a look.
 */
export type PutBack = 'keep' | 'drop';

export const IN_FLIGHT =
  'Another request is already sending the message on this row; it was not sent again and nothing else was changed.';

export const NO_MAILBOX =
  'No mailbox is connected, so nothing was sent. Connect a mailbox in the product, then draft and approve the message again.';

/** The desk's mailbox: its `mail` connection in status `connected`. */
async function findMailbox(ctx: DeskContext): Promise<(MailConnection & { id: number; faulted: boolean }) | null> {
  const c = await connectedMailbox(ctx.db, ctx.desk.id);
  if (!c) return null;
  return { id: c.id, provider: c.provider, config: storedObject(c.config), faulted: c.send_fault !== null };
}

/**
 * The row once its message has gone: sending answers a reply that was waiting to be read, and
 * a message that expects a reply puts the row out with its recipient.
 */
function afterSending(current: WorkRow, to: string, now: string): Parameters<typeof updateWork>[3] {
  const patch: Parameters<typeof updateWork>[3] = {
    last_error: null,
    replied_by: null,
    replied_at: null,
    updated_at: now,
  };
  if (expectsReply(current)) {
    patch.waiting_on = current.contact_name?.trim() || to;
    patch.waiting_since = now;
    // A row that goes out anew starts with every chase it allows.
    if (!current.waiting_on) patch.chases = 0;
  } else if (current.replied_at !== null) {
    // The answer to a reply ends the wait, whoever the row was still said to wait on.
    patch.waiting_on = null;
    patch.waiting_since = null;
  }
  return patch;
}

/**
 * Whether a reply was read on the row between `before` (the row as the send began) and
 * `current`. Such a reply came after the message: it stays to be read, and the row stays back
 * from waiting, so nobody who has answered is chased (P-mail-3).
 */
function heardMeanwhile(before: WorkRow, current: WorkRow): boolean {
  return (
    current.replied_at !== null &&
    (current.replied_at !== before.replied_at || current.replied_by !== before.replied_by)
  );
}

/**
 * Messages that expect a reply put the row out with the recipient. A message on a row holding a
 * reply answers it and asks nothing (P-mail-3): nobody who has replied is waited on or chased.
 */
function expectsReply(row: WorkRow): boolean {
  if (row.replied_at !== null) return false;
  return row.class === 'reach_out' || row.class === 'chase' || row.waiting_on !== null;
}

/** In-Reply-To and References for a message on the row, when it continues a conversation. */
async function threadingOf(ctx: DeskContext, row: WorkRow): Promise<{ inReplyTo?: string; references?: string[] }> {
  const reply = row.replied_at ? await lastReceivedOn(ctx.db, ctx.desk.id, row.id) : undefined;
  const sent = row.waiting_on || reply ? await lastSentOn(ctx.db, ctx.desk.id, row.id) : undefined;
  const answered = reply?.message_id ?? sent?.message_id;
  if (!answered) return {};
  // The whole conversation, as RFC 5322 has it, ending with the message answered: a mail client
  // that lost a message of it still threads the rest.
  const thread = (await threadIdsOn(ctx.db, ctx.desk.id, row.id)).filter((id) => id !== answered);
  return { inReplyTo: answered, references: [...new Set([...thread, answered])] };
}

export async function sendDraft(
  ctx: DeskContext,
  row: WorkRow,
  drafted: ActivityRow,
  opts: {
    actor?: string;
    putBack?: PutBack;
    /** Runs in the transaction that records a failed send, under the row's lock (complete keeps its note there). */
    onFailure?: (tx: DeskContext) => Promise<void>;
    /** Told as the message leaves for the mail server. */
    onSending?: (message: { subject: string; to: string }) => void;
    /** The message as the owner approved it: one that is not, as claimed, is put back unsent (P-screen-work-6). */
    seen?: Seen;
  } = {},
): Promise<SendOutcome> {
  // A follow-up to somebody who has not answered is threaded on the desk's last message to
  // them, and an answer to a reply waiting to be read on that reply, however it is sent (a run,
  // complete, the screen's button), so their mail shows one conversation and their next reply
  // names a message the desk knows.
  const threading = await threadingOf(ctx, row);
  const actor = opts.actor ?? actorName(ctx.actor);
  const claimedAt = ctx.now();
  // What goes out is the message as claimed, not as first read: an edit of its text or of the
  // row's address may have landed in between, and the record must say what was sent.
  const message = await claimDraft(ctx.db, ctx.desk.id, drafted.id, claimedAt, sendStaleAt(ctx.config, claimedAt));
  if (!message) return { delivered: false, failed: false, skipped: true, note: IN_FLIGHT };
  if (opts.seen && changedSinceSeen(message, opts.seen)) {
    await releaseDraft(ctx.db, ctx.desk.id, message.id);
    return { delivered: false, failed: false, skipped: true, note: CHANGED_SINCE };
  }
  // The reply the row holds as the send begins: one read while the message is on its way is newer.
  const before = (await findWork(ctx.db, ctx.desk.id, row.id)) ?? row;

  const to = message.to_address?.trim() ?? '';
  const who = before.contact_name && before.contact_email === to ? `${before.contact_name} <${to}>` : to;
  // One header line, whatever it was drafted with (a business file's message, an earlier
  // version's draft): recorded as it goes, so the record says what went (P-mail-10).
  const written = message.subject ?? '';
  const subject = breaksLine(written) ? oneLine(written) : written;
  if (subject !== written) await setSentSubject(ctx.db, message.id, subject);
  const said = { subject, who, to, actor };

  let reason: string | null = null;
  let messageId: string | null = null;
  /** The server stopped answering: the message may have gone. */
  let unknown = false;
  let unreachable = false;
  let refusedMailbox = false;
  const mailbox = await findMailbox(ctx).catch((err: unknown) => {
    // A password sealed under another key is a reason on the row, like a refusal, not a crash.
    if (!(err instanceof SecretKeyError)) throw err;
    reason = `The mailbox's password could not be opened, so nothing was sent. ${err.message}`;
    return null;
  });
  if (!mailbox) reason ??= NO_MAILBOX;
  else if (!to) reason = 'The message has no recipient, so nothing was sent.';
  // Stored before such addresses were refused: the mail server would take it as a list and send
  // to what it could read of it, while the desk said it went to the whole.
  else if (namesMoreThanOne(to))
    reason = `The message's address "${to}" names more than one, so nothing was sent; give the row one contact address and prepare the message again.`;
  // Stored before the marks mail's address syntax gives a meaning were refused: the mailer
  // would send to what it read of it ("a(b)c@x.test" to c@x.test), not to the address held.
  else if (!isEmailAddress(to))
    reason = `The message's address "${echoed(to)}" is not one the desk can send to as written, so nothing was sent; give the row a plain contact address and prepare the message again.`;
  else {
    try {
      const id = newMessageId(senderOf(mailbox.config), ctx.desk.slug);
      await noteMessageId(ctx.db, message.id, id);
      opts.onSending?.({ subject, to });
      const r = await ctx.engine.mailer.send(mailbox, { to, subject, text: message.body, messageId: id, ...threading });
      if (!r.accepted) {
        reason = r.reason || 'The mail server refused the message.';
        unknown = r.unknown === true;
        unreachable = r.unreachable === true;
        refusedMailbox = r.refusedMailbox === true;
      } else messageId = id;
    } catch (err) {
      reason = `The mail server could not be reached: ${err instanceof Error ? err.message : String(err)}`;
      unreachable = true;
    }
  }

  const now = ctx.now();
  if (reason === null) {
    const settled = await atomically(ctx, async (tx) => {
      await lockRow(tx, row.id);
      const current = (await findWork(tx.db, tx.desk.id, row.id)) ?? row;
      const bounced = await bouncedMeanwhile(tx, row, message.id, said, true, opts.onFailure);
      if (bounced !== null) {
        // The server took it: a fault it had is gone.
        if (mailbox?.faulted) await noteSendFault(tx.db, tx.desk.id, mailbox.id, null);
        return { bounced };
      }
      const heardNow = heardMeanwhile(before, current);
      await markSent(tx.db, message.id, now, messageId);
      // Only a send that follows a fault writes to clear it.
      if (mailbox?.faulted) await noteSendFault(tx.db, tx.desk.id, mailbox.id, null);
      await updateWork(
        tx.db,
        tx.desk.id,
        row.id,
        heardNow ? { last_error: null, updated_at: now } : afterSending(current, to, now),
      );
      await logEvent(tx, 'sent', `Sent "${subject}" to ${who}.`, {
        work_id: row.id,
        activity_id: message.id,
        to,
        actor,
      });
      await logTimeline(
        tx,
        row.id,
        'sent',
        `${actor === 'desk' ? 'The desk' : actor} approved "${subject}" and it was sent to ${who}.`,
      );
      if (row.waiting_on) await countChase(tx, row);
      return heardNow ? { by: current.replied_by } : null;
    });
    if (typeof settled?.bounced === 'string')
      return { delivered: false, failed: true, bounced: true, note: settled.bounced };
    return { delivered: true, failed: false, note: `Sent to ${who}.`, ...(settled ? { heard: settled.by } : {}) };
  }

  // The owner's connections page says the server could not be reached, went quiet or refused
  // the mailbox, until a send gets through; a refusal of this one message is not the mailbox's.
  // Any of those would meet every row alike, so the desk on its own leaves the row as it was.
  const mailboxFault = unreachable || refusedMailbox;
  const whose = { ...(unreachable ? { unreachable } : {}), ...(refusedMailbox ? { refusedMailbox } : {}) };
  if (mailbox && mailboxFault) await noteSendFault(ctx.db, ctx.desk.id, mailbox.id, { reason, at: now });
  if (mailboxFault && !unknown && opts.putBack) {
    await putBack(ctx, row, message, opts.putBack, { subject, who, to, reason, actor, refused: refusedMailbox });
    return { delivered: false, failed: true, note: reason, ...whose, putBack: true };
  }
  // One transaction under the row's lock: a complete that looks at the row sees the message
  // either in flight or failed, never between the two.
  const why = reason;
  const bounced = await atomically(ctx, async (tx) => {
    await lockRow(tx, row.id);
    const kept = await bouncedMeanwhile(tx, row, message.id, said, false, opts.onFailure);
    if (kept !== null) return kept;
    await markUnsent(tx.db, message.id, why, unknown);
    await updateWork(tx.db, tx.desk.id, row.id, { last_error: why, updated_at: now });
    await logEvent(tx, 'send_failed', `Could not send "${subject}" to ${who || 'nobody'}.`, {
      work_id: row.id,
      activity_id: message.id,
      to,
      reason: why,
      actor,
      ...(unknown ? { outcome_unknown: true } : {}),
    });
    // Named as the line of a send that went names them (P-writes-13).
    const line = unknown ? 'but it is not known to have been sent' : 'but it was not sent';
    await logTimeline(
      tx,
      row.id,
      'send_failed',
      `${actor === 'desk' ? 'The desk' : actor} approved "${subject}", ${line}: ${why}`,
    );
    await opts.onFailure?.(tx);
    return null;
  });
  if (bounced !== null) return { delivered: false, failed: true, bounced: true, note: bounced };
  return {
    delivered: false,
    failed: true,
    note: reason,
    ...(unknown ? { unknown } : {}),
    ...whose,
  };
}

/**
 * A mail server can deliver, and its bounce be read, before it answers the send, or when it never
 * does: the bounce stands (the message did not arrive) and the row keeps what it said to do,
 * under the row's lock. The send's own line says the message went. Null when no bounce came.
 */
async function bouncedMeanwhile(
  tx: DeskContext,
  row: WorkRow,
  messageId: number,
  s: { subject: string; who: string; to: string; actor: string },
  answered: boolean,
  onFailure?: (tx: DeskContext) => Promise<void>,
): Promise<string | null> {
  const bounce = await failureOf(tx.db, messageId);
  if (bounce === null) return null;
  const current = (await findWork(tx.db, tx.desk.id, row.id)) ?? row;
  await updateWork(tx.db, tx.desk.id, row.id, { updated_at: tx.now() });
  await logEvent(tx, 'sent', `Sent "${s.subject}" to ${s.who}.`, {
    work_id: row.id,
    activity_id: messageId,
    to: s.to,
    actor: s.actor,
  });
  const by = s.actor === 'desk' ? 'The desk' : s.actor;
  const when = answered ? 'before the mail server answered' : 'though the mail server never answered';
  await logTimeline(
    tx,
    row.id,
    'sent',
    `${by} approved "${s.subject}" and it was sent to ${s.who}; its bounce came back ${when}.`,
  );
  if (row.waiting_on) await countChase(tx, row);
  await onFailure?.(tx);
  return current.last_error ?? bounce;
}

async function putBack(
  ctx: DeskContext,
  row: WorkRow,
  message: ActivityRow,
  how: PutBack,
  s: { subject: string; who: string; to: string; reason: string; actor: string; refused?: boolean },
): Promise<void> {
  await atomically(ctx, async (tx) => {
    await releaseDraft(tx.db, tx.desk.id, message.id);
    if (how === 'drop') await withdrawDraft(tx.db, message.id);
    await logEvent(tx, 'send_failed', `Could not send "${s.subject}" to ${s.who}; it goes out later.`, {
      work_id: row.id,
      activity_id: message.id,
      to: s.to,
      reason: s.reason,
      actor: s.actor,
      put_back: true,
    });
    await logTimeline(
      tx,
      row.id,
      'send_failed',
      `"${s.subject}" was not sent: ${s.reason}${/[.!?]$/.test(s.reason) ? '' : '.'} Nothing went; the desk tries again once its mail server ${s.refused ? 'takes its mailbox' : 'answers'}.`,
    );
  });
}
