import { connectionById, mailConnections } from '../../store/repositories/connections.ts';
import {
  forgetReadFault,
  claimSeen,
  clearStuck,
  ensureReadPosition,
  handledBefore,
  nameReadPlace,
  noteRead,
  noteReadFault,
  noteStuck,
  readPosition,
  setSeenOutcome,
  startReading,
} from '../../store/repositories/mail.ts';
import { atomically, lockNamed } from '../../store/tx.ts';
import { isForeignKeyViolation } from '../../store/dialect.ts';
import type { DeskContext } from '../context.ts';
import { createHash } from 'node:crypto';
import { logEvent } from '../record.ts';
import type { IncomingMail, MailboxSettings, ParsedMail } from '../ports.ts';
import { cutAt, storable, storedObject } from '../text.ts';
import { applyMail, type MatchedMail } from './apply.ts';
import { keptMessageId } from './classify.ts';
import { mailboxSettings } from './settings.ts';
import { addressOf, senderOf } from '../desks/smtp-settings.ts';
import { addressKey } from './address.ts';

// One pass over a desk's mailboxes: every mail connection with an `imap` part is read from
// where its last pass stopped. Each message is handled in its own transaction, which claims
// the message's (connection, UIDVALIDITY, UID) record first, so a message is handled once
// however many passes or processes read it. No transaction is held while the server talks.

export const RESET_DAYS = 14;
export const MAX_BYTES = 10 * 1024 * 1024;
export const MAX_MESSAGES = 200;
/** Passes in a row that stop at one message before the desk passes over it. */
export const STUCK_PASSES = 5;
/**
 * The least time between two passes counted as stopping at one message: several processes, or
 * `desk mail pass` run by hand, make passes moments apart, and a store that is busy for a
 * moment must not have a message passed over.
 */
export const STUCK_SPACING_MS = 60_000;

export interface MailboxPass {
  connection_id: number;
  name: string;
  /** `read` when the whole pass went through, `error` when the server could not be read to the end. */
  status: 'read' | 'error';
  /** What stopped the pass; the messages counted below were read before it and handled. */
  error: string | null;
  /** What stopped the pass before this one, if one did: a fault that goes on is told once. */
  error_before: string | null;
  /** Whether the pass reached the mailbox's messages: false when the server could not be read at all. */
  reached: boolean;
  /** More new messages wait than one pass reads; the next pass goes on from here. */
  more: boolean;
  /** Messages this pass looked at, and what became of them. */
  read: number;
  replies: number;
  auto_replies: number;
  bounces: number;
  unrelated: number;
  unparseable: number;
  /** Messages another pass, or an earlier reading of a reset mailbox, had already handled. */
  already_handled: number;
  /** Messages that could not be handled in STUCK_PASSES passes in a row, and were passed over. */
  passed_over: number;
}

export interface MailPassResult {
  mailboxes: MailboxPass[];
  matched: MatchedMail[];
}

function settingsOf(config: string): MailboxSettings | null {
  return mailboxSettings(storedObject(config));
}

export async function readMail(ctx: DeskContext): Promise<MailPassResult> {
  const result: MailPassResult = { mailboxes: [], matched: [] };
  const connections = await mailConnections(ctx.db, ctx.desk.id);
  const own = ownAddresses(connections.map((c) => c.config));
  for (const c of connections) {
    const settings = settingsOf(c.config);
    if (!settings) {
      // Its inbox was removed: a fault from when it had one no longer applies (P-inbox-2).
      await forgetReadFault(ctx.db, c.id);
      continue;
    }
    try {
      result.mailboxes.push(await readOne(ctx, c.id, c.name, settings, own, result.matched));
    } catch (err) {
      // Removed as the pass came to it: no longer the desk's to read. The others still are.
      if (isForeignKeyViolation(err) && !(await connectionById(ctx.db, ctx.desk.id, c.id))) continue;
      throw err;
    }
  }
  return result;
}

/** The addresses the desk's mailboxes send as, in the lower case a parsed sender is kept in. */
function ownAddresses(configs: string[]): Set<string> {
  const own = new Set<string>();
  for (const config of configs) {
    const sender = senderOf(storedObject(config));
    const address = sender === null ? null : addressOf(sender);
    if (address) own.add(addressKey(address));
  }
  return own;
}

/**
 * Where a mailbox is read: its server, login and folder, in short. A UIDVALIDITY names the UIDs
 * of one folder only (another folder may show the same), so the read position and each handled
 * message's record hold both: "UIDVALIDITY PLACE".
 */
function placeOf(s: MailboxSettings): string {
  const where = JSON.stringify([s.host.trim().toLowerCase(), s.port, s.user ?? '', s.mailbox]);
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

/** A kept read position's UIDVALIDITY and place (null for one kept before places were). */
function readAt(kept: string | null): { uidValidity: string | null; place: string | null } {
  if (kept === null) return { uidValidity: null, place: null };
  const gap = kept.indexOf(' ');
  return gap < 0 ? { uidValidity: kept, place: null } : { uidValidity: kept.slice(0, gap), place: kept.slice(gap + 1) };
}

async function readOne(
  ctx: DeskContext,
  connectionId: number,
  name: string,
  settings: MailboxSettings,
  own: ReadonlySet<string>,
  matched: MatchedMail[],
): Promise<MailboxPass> {
  const pass: MailboxPass = {
    connection_id: connectionId,
    name,
    status: 'read',
    error: null,
    error_before: null,
    reached: false,
    more: false,
    read: 0,
    replies: 0,
    auto_replies: 0,
    bounces: 0,
    unrelated: 0,
    unparseable: 0,
    already_handled: 0,
    passed_over: 0,
  };
  await ensureReadPosition(ctx.db, ctx.desk.id, connectionId);
  const position = await readPosition(ctx.db, connectionId);
  pass.error_before = position?.error ?? null;
  const was = readAt(position?.uidvalidity ?? null);
  const place = placeOf(settings);
  // Another server, login or folder is another mailbox, whatever UIDVALIDITY it shows: read as new.
  const here = was.place === null || was.place === place;
  const since = new Date(ctx.clock.now().getTime() - RESET_DAYS * 86_400_000);
  let batch: Awaited<ReturnType<DeskContext['engine']['reader']['read']>>;
  try {
    batch = await ctx.engine.reader.read(
      settings,
      { uidValidity: here ? was.uidValidity : null, lastUid: here ? (position?.last_uid ?? 0) : 0, since },
      { timeoutMs: ctx.config.mailTimeoutMs, maxBytes: MAX_BYTES, maxMessages: MAX_MESSAGES },
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await noteReadFault(ctx.db, connectionId, reason, ctx.now());
    return { ...pass, status: 'error', error: reason };
  }
  pass.reached = true;
  const validity = `${batch.uidValidity} ${place}`;
  // A position kept before places were (its UIDVALIDITY alone) goes on where it was.
  if (was.place === null && was.uidValidity === batch.uidValidity)
    await nameReadPlace(ctx.db, connectionId, was.uidValidity, validity);
  // A new mailbox is kept only once the pass has found where its last days begin: kept before,
  // after a search that failed, the next pass would read it from its first message.
  else if (validity !== position?.uidvalidity && batch.olderUpTo !== undefined)
    await startReading(ctx.db, connectionId, validity, ctx.now(), batch.olderUpTo);
  for (const m of batch.messages) {
    let outcome: Handled;
    try {
      outcome = await handle(ctx, connectionId, validity, m, own);
    } catch (err) {
      // Nothing of the message was kept, so the next pass reads it again; until then the
      // mailbox shows why it stopped, as for a server that could not be read. A message that
      // stops pass after pass would hold back every reply behind it, so in the end it is passed over.
      const why = err instanceof Error ? err.message : String(err);
      const since = new Date(ctx.clock.now().getTime() - STUCK_SPACING_MS).toISOString();
      const tries = await noteStuck(ctx.db, connectionId, m.uid, ctx.now(), since);
      let reason = `A message could not be handled: ${why}`;
      if (tries >= STUCK_PASSES) {
        try {
          await passOver(ctx, connectionId, validity, m, why);
          pass.read++;
          pass.passed_over++;
          continue;
        } catch (again) {
          reason = `A message could not be handled, nor passed over: ${again instanceof Error ? again.message : String(again)}`;
        }
      } else {
        reason += ` (${tries} of ${STUCK_PASSES} passes a minute or more apart; after ${STUCK_PASSES}, the desk passes over it and reads on)`;
      }
      await noteReadFault(ctx.db, connectionId, reason, ctx.now());
      return { ...pass, status: 'error', error: reason };
    }
    pass.read++;
    if (outcome === 'seen') pass.already_handled++;
    else if (outcome === 'unparseable') pass.unparseable++;
    else if (outcome === 'unrelated') pass.unrelated++;
    else if (outcome === 'repeat') pass.already_handled++;
    else {
      matched.push(outcome);
      if (outcome.kind === 'reply') pass.replies++;
      else if (outcome.kind === 'auto_reply') pass.auto_replies++;
      else pass.bounces++;
    }
  }
  if (batch.fault !== null) {
    await noteReadFault(ctx.db, connectionId, batch.fault, ctx.now());
    return { ...pass, status: 'error', error: batch.fault };
  }
  await noteRead(ctx.db, connectionId, { uidvalidity: validity, checked_at: ctx.now() });
  return { ...pass, more: batch.more };
}

/**
 * Records a message the desk could not handle as passed over, so that the mailbox reads on,
 * and says so in the desk's log with what is known of it.
 */
async function passOver(
  ctx: DeskContext,
  connectionId: number,
  uidvalidity: string,
  m: IncomingMail,
  why: string,
): Promise<void> {
  await atomically(ctx, async (tx) => {
    const now = tx.now();
    const claimed = await claimSeen(tx.db, {
      connection_id: connectionId,
      uidvalidity,
      uid: m.uid,
      desk_id: tx.desk.id,
      message_id: m.mail ? storable(identityOf(m.mail)) : null,
      outcome: 'passed_over',
      handled_at: now,
    });
    await noteRead(tx.db, connectionId, { uidvalidity, checked_at: now, last_uid: m.uid });
    await clearStuck(tx.db, connectionId);
    if (!claimed) return;
    // What is kept of the message is cut short and cleaned: its own text may be what the store refused.
    const from = storable(cutAt(m.mail?.fromAddress ?? 'an unknown sender', 200));
    const subject = storable(cutAt(m.mail?.subject ?? '', 200));
    const reason = storable(cutAt(why, 500));
    await logEvent(
      tx,
      'mail_passed_over',
      `A message from ${from} ("${subject}") could not be handled in ${STUCK_PASSES} passes, so the desk passed over it: ${reason}`,
      { connection_id: connectionId, uid: m.uid, from, subject, reason },
    );
  });
}

type Handled = MatchedMail | 'seen' | 'unparseable' | 'unrelated' | 'repeat';

/**
 * What a message is known by when a reset mailbox is read again: its Message-ID, or for mail
 * that has none, a digest of its sender, date, subject and text, which a second copy shares.
 */
function identityOf(mail: Pick<ParsedMail, 'messageId' | 'fromAddress' | 'date' | 'subject' | 'text'>): string {
  if (mail.messageId) return keptMessageId(mail.messageId);
  const digest = createHash('sha256')
    .update(JSON.stringify([mail.fromAddress, mail.date, mail.subject, mail.text]))
    .digest('base64url');
  return `<${digest}@no-message-id.desk.invalid>`;
}

async function handle(
  ctx: DeskContext,
  connectionId: number,
  uidvalidity: string,
  m: IncomingMail,
  own: ReadonlySet<string>,
): Promise<Handled> {
  return atomically(ctx, async (tx) => {
    const key = { connection_id: connectionId, uidvalidity, uid: m.uid };
    const now = tx.now();
    const identity = m.mail ? identityOf(m.mail) : null;
    const claimed = await claimSeen(tx.db, {
      ...key,
      desk_id: tx.desk.id,
      message_id: identity,
      outcome: 'unrelated',
      handled_at: now,
    });
    if (!claimed) return 'seen';
    await noteRead(tx.db, connectionId, { uidvalidity, checked_at: now, last_uid: m.uid });
    if (!m.mail) {
      await setSeenOutcome(tx.db, key, 'unparseable');
      return 'unparseable';
    }
    // Copies of one message in two of the desk's mailboxes, read by two processes at once: the
    // second waits for the first to commit, and then finds it handled.
    if (identity) await lockNamed(tx, `mail:${tx.desk.id}:${identity}`);
    if (identity && (await handledBefore(tx.db, key, tx.desk.id, identity))) {
      await setSeenOutcome(tx.db, key, 'repeat');
      return 'repeat';
    }
    const done = await applyMail(tx, m.mail, own);
    if (!done) return 'unrelated';
    await setSeenOutcome(tx.db, key, done.kind);
    return done;
  });
}
