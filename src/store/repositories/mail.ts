import type { Kysely } from 'kysely';
import type { Database, MailReadsTable } from '../schema.ts';
import { addressKey } from '../../domain/mail/address.ts';
import { foldedAddress } from '../dialect.ts';

// Reading the desk's mailbox: where each connection's reading has got to, the record of every
// message a pass handled, and the look-ups that match a reply to what the desk sent.

export async function readPosition(db: Kysely<Database>, connectionId: number) {
  return db.selectFrom('mail_reads').selectAll().where('connection_id', '=', connectionId).executeTakeFirst();
}

export async function readPositions(db: Kysely<Database>, deskId: string) {
  return db.selectFrom('mail_reads').selectAll().where('desk_id', '=', deskId).execute();
}

/** Creates the connection's record on its first pass. */
export async function ensureReadPosition(db: Kysely<Database>, deskId: string, connectionId: number): Promise<void> {
  await db
    .insertInto('mail_reads')
    .values({
      connection_id: connectionId,
      desk_id: deskId,
      uidvalidity: null,
      last_uid: 0,
      error: null,
      checked_at: null,
    })
    .onConflict((oc) => oc.column('connection_id').doNothing())
    .execute();
}

export async function noteReadFault(db: Kysely<Database>, connectionId: number, error: string, at: string) {
  await db.updateTable('mail_reads').set({ error, checked_at: at }).where('connection_id', '=', connectionId).execute();
}

/** A mailbox no longer read (its inbox removed) no longer says why its last reading failed. */
export async function forgetReadFault(db: Kysely<Database>, connectionId: number) {
  await db
    .updateTable('mail_reads')
    .set({ error: null })
    .where('connection_id', '=', connectionId)
    .where('error', 'is not', null)
    .execute();
}

/** A position kept under its UIDVALIDITY alone, named now with its place too; the count goes on. */
export async function nameReadPlace(db: Kysely<Database>, connectionId: number, was: string, now: string) {
  await db
    .updateTable('mail_reads')
    .set({ uidvalidity: now })
    .where('connection_id', '=', connectionId)
    .where('uidvalidity', '=', was)
    .execute();
}

/**
 * A new UIDVALIDITY starts the count again, from after `olderUpTo` (what lies up to it is older
 * than the days a reset reads); the messages already handled are known by Message-ID.
 */
export async function startReading(
  db: Kysely<Database>,
  connectionId: number,
  uidvalidity: string,
  at: string,
  olderUpTo = 0,
) {
  await db
    .updateTable('mail_reads')
    .set({
      uidvalidity,
      last_uid: olderUpTo,
      error: null,
      checked_at: at,
      stuck_uid: null,
      stuck_tries: 0,
      stuck_at: null,
    })
    .where('connection_id', '=', connectionId)
    .where((eb) => eb.or([eb('uidvalidity', 'is', null), eb('uidvalidity', '!=', uidvalidity)]))
    .execute();
}

/**
 * Counts a pass that stopped at message `uid`, unless the last one counted stopped there after
 * `since`; says how many are counted. A pass that stops at another message starts the count again.
 */
export async function noteStuck(
  db: Kysely<Database>,
  connectionId: number,
  uid: number,
  at: string,
  since: string,
): Promise<number> {
  const r = await db
    .updateTable('mail_reads')
    .set((eb) => {
      const recent = eb.and([eb('stuck_uid', '=', uid), eb('stuck_at', '>', since)]);
      return {
        stuck_tries: eb
          .case()
          .when(recent)
          .then(eb.ref('stuck_tries'))
          .when('stuck_uid', '=', uid)
          .then(eb('stuck_tries', '+', 1))
          .else(1)
          .end(),
        stuck_at: eb.case().when(recent).then(eb.ref('stuck_at')).else(at).end(),
        stuck_uid: uid,
      };
    })
    .where('connection_id', '=', connectionId)
    .returning('stuck_tries')
    .executeTakeFirst();
  return r?.stuck_tries ?? 1;
}

/** The pass over a message that could not be handled: the count of passes stopped at one ends. */
export async function clearStuck(db: Kysely<Database>, connectionId: number): Promise<void> {
  await db
    .updateTable('mail_reads')
    .set({ stuck_uid: null, stuck_tries: 0, stuck_at: null })
    .where('connection_id', '=', connectionId)
    .execute();
}

/** The pass reached the server; the last UID only ever moves forward. */
export async function noteRead(
  db: Kysely<Database>,
  connectionId: number,
  patch: Pick<MailReadsTable, 'uidvalidity' | 'checked_at'> & { last_uid?: number },
) {
  await db
    .updateTable('mail_reads')
    .set({ error: null, checked_at: patch.checked_at })
    .where('connection_id', '=', connectionId)
    .execute();
  if (patch.last_uid !== undefined)
    await db
      .updateTable('mail_reads')
      .set({ last_uid: patch.last_uid })
      .where('connection_id', '=', connectionId)
      .where('uidvalidity', '=', patch.uidvalidity)
      .where('last_uid', '<', patch.last_uid)
      .execute();
}

/** Claims one message for this pass; false when a pass (here or in another process) already has. */
export async function claimSeen(
  db: Kysely<Database>,
  seen: {
    connection_id: number;
    uidvalidity: string;
    uid: number;
    desk_id: string;
    message_id: string | null;
    outcome: string;
    handled_at: string;
  },
): Promise<boolean> {
  const r = await db
    .insertInto('mail_seen')
    .values(seen)
    .onConflict((oc) => oc.columns(['connection_id', 'uidvalidity', 'uid']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function setSeenOutcome(
  db: Kysely<Database>,
  key: { connection_id: number; uidvalidity: string; uid: number },
  outcome: string,
) {
  await db
    .updateTable('mail_seen')
    .set({ outcome })
    .where('connection_id', '=', key.connection_id)
    .where('uidvalidity', '=', key.uidvalidity)
    .where('uid', '=', key.uid)
    .execute();
}

/**
 * A message with this Message-ID was already handled under another UID or UIDVALIDITY, or
 * from another of the desk's mailboxes: a reply sent to two of the desk's addresses is in both,
 * and a mailbox removed and added again reads what it handled before (migration 019).
 */
export async function handledBefore(
  db: Kysely<Database>,
  key: { connection_id: number; uidvalidity: string; uid: number },
  deskId: string,
  messageId: string,
): Promise<boolean> {
  const r = await db
    .selectFrom('mail_seen')
    .select('uid')
    .where('desk_id', '=', deskId)
    .where('message_id', '=', messageId)
    // Mail left alone as unrelated was not handled: another message sent under its Message-ID
    // (a sender that reuses one) is read for what it is.
    .where('outcome', '!=', 'unrelated')
    .where((eb) =>
      eb.or([
        eb('connection_id', '!=', key.connection_id),
        eb('uidvalidity', '!=', key.uidvalidity),
        eb('uid', '!=', key.uid),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** The message the desk sent under the first of these Message-IDs that names one. */
export async function sentUnderIds(db: Kysely<Database>, deskId: string, ids: readonly string[]) {
  if (ids.length === 0) return undefined;
  const sent = await db
    .selectFrom('activity')
    .select([
      'id',
      'obligation_id',
      'to_address',
      'subject',
      'status',
      'message_id',
      'sent_at',
      'approved_at',
      'failure_reason',
    ])
    .where('desk_id', '=', deskId)
    .where('message_id', 'in', ids)
    .where('direction', '=', 'outbound')
    .where('kind', '=', 'message')
    .where('obligation_id', 'is not', null)
    .execute();
  // The id named first wins (the caller gives In-Reply-To before References).
  const rank = (m: { message_id: string | null }) => ids.indexOf(m.message_id ?? '');
  return sent.sort((a, b) => rank(a) - rank(b) || b.id - a.id)[0];
}

/** Messages the desk sent since `since` on unfinished rows waiting on somebody at this address. */
export async function sentToWaiting(db: Kysely<Database>, deskId: string, address: string, since: string) {
  return db
    .selectFrom('activity')
    .innerJoin('work', 'work.id', 'activity.obligation_id')
    .select([
      'activity.id',
      'activity.obligation_id',
      'activity.to_address',
      'activity.subject',
      'activity.status',
      'activity.sent_at',
      'activity.message_id',
    ])
    .where('activity.desk_id', '=', deskId)
    .where('work.desk_id', '=', deskId)
    .where('activity.direction', '=', 'outbound')
    .where('activity.kind', '=', 'message')
    .where('activity.status', '=', 'sent')
    .where('activity.sent_at', '>=', since)
    .where('work.waiting_on', 'is not', null)
    .where('work.status', 'in', ['open', 'in_progress', 'waiting'])
    .where(foldedAddress(db, 'work.contact_email'), '=', addressKey(address))
    .orderBy('activity.id', 'desc')
    .limit(50)
    .execute();
}

/** The newest message the desk sent on a row after message `afterId`, and still counts as sent. */
export async function sentOnRowAfter(db: Kysely<Database>, deskId: string, workId: number, afterId: number) {
  return db
    .selectFrom('activity')
    .select(['id', 'to_address'])
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('direction', '=', 'outbound')
    .where('kind', '=', 'message')
    .where('status', '=', 'sent')
    .where('id', '>', afterId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A sent message a delivery report says never arrived. */
export async function markBounced(db: Kysely<Database>, id: number, reason: string, sentAt: string): Promise<void> {
  // A bounce shows the message was handed over: one whose send got no answer went when claimed.
  await db
    .updateTable('activity')
    .set({ status: 'approved', failure_reason: reason, sent_at: sentAt })
    .where('id', '=', id)
    .execute();
}

/** Rows holding a reply nobody has seen to yet: not given to a person. */
export async function countUnreadReplies(db: Kysely<Database>, deskId: string): Promise<number> {
  const r = await db
    .selectFrom('work')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('desk_id', '=', deskId)
    .where('replied_at', 'is not', null)
    .where('assignee', 'is', null)
    .where('status', 'in', ['open', 'in_progress', 'waiting'])
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
