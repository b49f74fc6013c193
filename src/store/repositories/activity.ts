import type { Kysely } from 'kysely';
import type { ActivityRow, Database } from '../schema.ts';
import { addressKey } from '../../domain/mail/address.ts';
import { foldedAddress } from '../dialect.ts';

// The activity table: messages, notes and run reports. Every entry is written here, so the
// columns are spelled once.

export interface NewActivity {
  deskId: string;
  /** message, note or report */
  kind: string;
  channel: string;
  direction: 'inbound' | 'outbound';
  body: string;
  status: string;
  actor: string;
  at: string;
  workId?: number | null;
  arrangementId?: number | null;
  /** The run a report belongs to. */
  outcomeId?: number | null;
  subject?: string | null;
  to?: string | null;
  /** The address a received message came from. */
  from?: string | null;
  failureReason?: string | null;
  sentAt?: string | null;
  approvedAt?: string | null;
  /** The Message-ID a received message came with. */
  messageId?: string | null;
  /** A received message's attachments, listed not kept. */
  attachments?: Array<{ name: string; size: number }> | null;
}

export async function insertActivity(db: Kysely<Database>, a: NewActivity): Promise<ActivityRow> {
  return db.insertInto('activity').values(activityValues(a)).returningAll().executeTakeFirstOrThrow();
}

/**
 * Many entries at once, in statements of a few hundred (an import's messages). Each entry
 * names every column: in a statement of several rows, a column one row leaves out is written
 * NULL on SQLite and its default on PostgreSQL.
 */
export async function insertActivityMany(
  db: Kysely<Database>,
  list: readonly NewActivity[],
  chunk = 500,
): Promise<void> {
  for (let start = 0; start < list.length; start += chunk)
    await db
      .insertInto('activity')
      .values(list.slice(start, start + chunk).map(activityValues))
      .execute();
}

function activityValues(a: NewActivity) {
  return {
    desk_id: a.deskId,
    kind: a.kind,
    obligation_id: a.workId ?? null,
    arrangement_id: a.arrangementId ?? null,
    outcome_id: a.outcomeId ?? null,
    channel: a.channel,
    direction: a.direction,
    subject: a.subject ?? null,
    body: a.body,
    to_address: a.to ?? null,
    from_address: a.from ?? null,
    status: a.status,
    actor: a.actor,
    failure_reason: a.failureReason ?? null,
    created_at: a.at,
    sent_at: a.sentAt ?? null,
    approved_at: a.approvedAt ?? null,
    message_id: a.messageId ?? null,
    attachments: a.attachments ? JSON.stringify(a.attachments) : null,
  };
}

/** A work row's messages in one state. */
function messagesIn(db: Kysely<Database>, deskId: string, workId: number, status: string) {
  return db
    .selectFrom('activity')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .where('status', '=', status);
}

/** A work row's messages in one state, one at a time: the newest first, or the oldest. */
function messageOn(db: Kysely<Database>, deskId: string, workId: number, status: string, which: 'newest' | 'oldest') {
  return messagesIn(db, deskId, workId, status)
    .orderBy('id', which === 'newest' ? 'desc' : 'asc')
    .limit(1);
}

/** A work row's message in state `drafted`: the newest, or with `oldest` the first one written. */
export async function draftOn(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
  which: 'newest' | 'oldest' = 'newest',
): Promise<ActivityRow | undefined> {
  return messageOn(db, deskId, workId, 'drafted', which).executeTakeFirst();
}

/** The row's messages still in `drafted` to `from` (any letter case) go to `to` instead; how many. */
export async function readdressDrafts(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
  from: string,
  to: string,
): Promise<number> {
  const r = await db
    .updateTable('activity')
    .set({ to_address: to })
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .where('status', '=', 'drafted')
    .where(foldedAddress(db, 'to_address'), '=', addressKey(from))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The row's messages still in `drafted`, oldest first. */
export async function draftsOn(db: Kysely<Database>, deskId: string, workId: number): Promise<ActivityRow[]> {
  return messagesIn(db, deskId, workId, 'drafted').orderBy('id').execute();
}

/** The owner's edit of a message still in `drafted`; what was sent is never rewritten. */
export async function reviseDraftText(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  subject: string | null,
  body: string,
): Promise<void> {
  await db
    .updateTable('activity')
    .set({ subject, body })
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .where('status', '=', 'drafted')
    .execute();
}

/** A claimed message that was never handed to a mail server goes back to being a draft. */
export async function releaseDraft(db: Kysely<Database>, deskId: string, id: number): Promise<void> {
  await db
    .updateTable('activity')
    .set({ status: 'drafted', approved_at: null, failure_reason: null, message_id: null })
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .execute();
}

/** Withdraws a draft that lost a race; a message already claimed for sending is left alone. */
export async function withdrawDraft(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('activity').where('id', '=', id).where('status', '=', 'drafted').execute();
}

/** A note on an arrangement: what it says, who wrote it and when. */
export interface NoteRead {
  body: string;
  actor: string;
  created_at: string;
}

/** The newest notes on an arrangement, newest first. */
export async function recentNotes(
  db: Kysely<Database>,
  deskId: string,
  arrangementId: number,
  limit: number,
): Promise<NoteRead[]> {
  return db
    .selectFrom('activity')
    .select(['body', 'actor', 'created_at'])
    .where('desk_id', '=', deskId)
    .where('arrangement_id', '=', arrangementId)
    .where('kind', '=', 'note')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Claims a drafted message for sending (drafted → approved, compare-and-set), and gives it as
 * claimed: its text and address as they are now, an edit committed since it was first read
 * included. Undefined when another call got it first.
 */
export async function claimDraft(
  db: Kysely<Database>,
  deskId: string,
  id: number,
  at: string,
  staleAt: string,
): Promise<ActivityRow | undefined> {
  return db
    .updateTable('activity')
    .set({ status: 'approved', approved_at: at, send_stale_at: staleAt, failure_reason: null })
    .where('desk_id', '=', deskId)
    .where('id', '=', id)
    .where('status', '=', 'drafted')
    .returningAll()
    .executeTakeFirst();
}

/** A claimed message's subject as it goes out, when that differs from the one it was drafted with. */
export async function setSentSubject(db: Kysely<Database>, id: number, subject: string): Promise<void> {
  await db.updateTable('activity').set({ subject }).where('id', '=', id).execute();
}

/**
 * The Message-ID a claimed message goes out under, kept before it is handed over: a reply may
 * name it even when the mail server's answer never comes (P-mail-2).
 */
export async function noteMessageId(db: Kysely<Database>, id: number, messageId: string): Promise<void> {
  await db.updateTable('activity').set({ message_id: messageId }).where('id', '=', id).execute();
}

/** Why a message did not arrive, when a bounce says so; null while nothing has. */
export async function failureOf(db: Kysely<Database>, id: number): Promise<string | null> {
  const r = await db.selectFrom('activity').select('failure_reason').where('id', '=', id).executeTakeFirst();
  return r?.failure_reason ?? null;
}

/** A message a reply shows went, though its send ended without the mail server saying so. */
export async function markSentAfterAll(db: Kysely<Database>, id: number, at: string): Promise<void> {
  await db
    .updateTable('activity')
    .set({ status: 'sent', sent_at: at, failure_reason: null })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .execute();
}

export async function markSent(db: Kysely<Database>, id: number, at: string, messageId: string | null): Promise<void> {
  await db
    .updateTable('activity')
    .set({ status: 'sent', sent_at: at, message_id: messageId, failure_reason: null })
    .where('id', '=', id)
    .execute();
}

/** The newest message on a row that was approved and not sent, with why (D13). */
export async function unsentOn(db: Kysely<Database>, deskId: string, workId: number): Promise<ActivityRow | undefined> {
  return messageOn(db, deskId, workId, 'approved', 'newest').where('failure_reason', 'is not', null).executeTakeFirst();
}

/**
 * A send that failed. The Message-ID it went under is kept only while the message may have gone
 * (`mayHaveGone`: the server stopped answering once it had the text), so that only a reply to
 * such a message can show it went; a refused one was never seen by anybody.
 */
export async function markUnsent(db: Kysely<Database>, id: number, reason: string, mayHaveGone = false): Promise<void> {
  await db
    .updateTable('activity')
    .set(mayHaveGone ? { failure_reason: reason } : { failure_reason: reason, message_id: null })
    .where('id', '=', id)
    .execute();
}

/** The newest message a provider accepted. */
export async function lastSentMessage(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('activity')
    .select(['subject', 'to_address', 'sent_at'])
    .where('desk_id', '=', deskId)
    .where('kind', '=', 'message')
    .where('status', '=', 'sent')
    .where('sent_at', 'is not', null)
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The newest message that was approved but could not be sent. */
export async function lastUnsentMessage(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('activity')
    .select(['subject', 'to_address', 'approved_at', 'created_at', 'failure_reason'])
    .where('desk_id', '=', deskId)
    .where('kind', '=', 'message')
    .where('status', '=', 'approved')
    .where('failure_reason', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Why each message on a row that was approved and not sent was not sent, by message id. */
export async function unsentReasonsOn(db: Kysely<Database>, deskId: string, workId: number) {
  const rows = await db
    .selectFrom('activity')
    .select(['id', 'failure_reason'])
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .where('status', '=', 'approved')
    .where('failure_reason', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.id, r.failure_reason!]));
}

/** Per arrangement: how many notes it has and when the newest was written. */
export async function notesByArrangement(db: Kysely<Database>, deskId: string) {
  return db
    .selectFrom('activity')
    .select((eb) => ['arrangement_id', eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('last')])
    .where('desk_id', '=', deskId)
    .where('kind', '=', 'note')
    .where('arrangement_id', 'is not', null)
    .groupBy('arrangement_id')
    .execute();
}

/** The desk's activity, newest first (/activity). */
export async function recentActivity(db: Kysely<Database>, deskId: string, limit: number) {
  return db
    .selectFrom('activity')
    .select([
      'id',
      'obligation_id',
      'arrangement_id',
      'outcome_id',
      'channel',
      'direction',
      'subject',
      'body',
      'status',
      'actor',
      'created_at',
      'sent_at',
      'approved_at',
    ])
    .where('desk_id', '=', deskId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A work row's messages, oldest first. */
export async function messagesOn(db: Kysely<Database>, deskId: string, workId: number) {
  return db
    .selectFrom('activity')
    .select([
      'id',
      'channel',
      'direction',
      'subject',
      'body',
      'status',
      'actor',
      'to_address as to',
      'created_at',
      'sent_at',
      'approved_at',
      'attachments',
    ])
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The newest message on the row a provider accepted: what a follow-up is threaded on. */
export function lastSentOn(db: Kysely<Database>, deskId: string, workId: number) {
  return lastMessageOn(db, deskId, workId, 'sent');
}

/** The newest message read from the mailbox on a row: a reply the desk's next message answers. */
export function lastReceivedOn(db: Kysely<Database>, deskId: string, workId: number) {
  return lastMessageOn(db, deskId, workId, 'received');
}

/**
 * The Message-IDs of a row's conversation, the desk's and its contacts', oldest first: the
 * newest `most` of them, and the first.
 */
export async function threadIdsOn(db: Kysely<Database>, deskId: string, workId: number, most = 20): Promise<string[]> {
  const rows = await db
    .selectFrom('activity')
    .select(['desk_id', 'message_id'])
    .where('obligation_id', '=', workId)
    .where('status', 'in', ['sent', 'received'])
    .where('kind', '=', 'message')
    .where('message_id', 'is not', null)
    .orderBy('id', 'asc')
    .execute();
  const ids = rows.filter((r) => r.desk_id === deskId).map((r) => r.message_id!);
  return ids.length > most ? [ids[0]!, ...ids.slice(-(most - 1))] : ids;
}

async function lastMessageOn(db: Kysely<Database>, deskId: string, workId: number, status: 'sent' | 'received') {
  const rows = await db
    .selectFrom('activity')
    .select(['id', 'desk_id', 'subject', 'message_id', 'sent_at', 'from_address'])
    .where('obligation_id', '=', workId)
    .where('status', '=', status)
    .where('kind', '=', 'message')
    .orderBy('id', 'desc')
    .limit(5)
    .execute();
  return rows.find((r) => r.desk_id === deskId);
}

/** When a message last went to `to` (any letter case) at `since` or after; null when none did (migration 015's index). */
export async function lastSentToSince(
  db: Kysely<Database>,
  deskId: string,
  to: string,
  since: string,
): Promise<string | null> {
  return (await sentToQuery(db, deskId, to, since).executeTakeFirst())?.sent_at ?? null;
}

/**
 * Whether a message to `to` (any letter case) went at `since` or after, or was claimed for
 * sending since then and has nothing recorded yet: its send is under way.
 */
export async function sentOrGoingTo(db: Kysely<Database>, deskId: string, to: string, since: string): Promise<boolean> {
  if (await sentToQuery(db, deskId, to, since).executeTakeFirst()) return true;
  const going = await db
    .selectFrom('activity')
    .select('id')
    .where('desk_id', '=', deskId)
    .where(foldedAddress(db, 'to_address'), '=', addressKey(to))
    .where('kind', '=', 'message')
    .where('status', '=', 'approved')
    .where('sent_at', 'is', null)
    .where('failure_reason', 'is', null)
    .where('approved_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return going !== undefined;
}

export function sentToQuery(db: Kysely<Database>, deskId: string, to: string, since: string) {
  return db
    .selectFrom('activity')
    .select('sent_at')
    .where('desk_id', '=', deskId)
    .where(foldedAddress(db, 'to_address'), '=', addressKey(to))
    .where('sent_at', '>=', since)
    .where('kind', '=', 'message')
    .orderBy('sent_at', 'desc')
    .limit(1);
}
