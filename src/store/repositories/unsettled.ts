import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { StaleLine } from './stale-line.ts';

// A message claimed for sending (drafted → approved) whose send has not recorded how it ended:
// neither sent nor given a reason. Written out in words, not bound values, so that SQLite sees
// the query's condition is the index's own (activity_unsettled, migration 020) and uses it.
export const UNSETTLED = sql<boolean>`kind = 'message' and status = 'approved' and sent_at is null and failure_reason is null`;

export interface UnsettledClaim {
  id: number;
  obligation_id: number | null;
  subject: string | null;
  to_address: string | null;
}

/** The desk's claimed messages past the line whose send never recorded how it ended, oldest first. */
export async function unsettledClaims(
  db: Kysely<Database>,
  deskId: string,
  line: StaleLine,
  most: number,
): Promise<UnsettledClaim[]> {
  return unsettledQuery(db, deskId, line, most).execute();
}

export function unsettledQuery(db: Kysely<Database>, deskId: string, line: StaleLine, most: number) {
  return db
    .selectFrom('activity')
    .select(['id', 'obligation_id', 'subject', 'to_address'])
    .where('desk_id', '=', deskId)
    .where(UNSETTLED)
    .where((eb) =>
      eb.or([
        eb('send_stale_at', '<', line.now),
        eb.and([eb('send_stale_at', 'is', null), eb('approved_at', '<', line.legacyBefore)]),
      ]),
    )
    .orderBy('approved_at')
    .limit(most);
}

/** The row's claimed messages whose send has not recorded how it ended, with when each was claimed and goes stale. */
export async function unsettledClaimsOn(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
): Promise<Array<UnsettledClaim & { approved_at: string | null; send_stale_at: string | null }>> {
  return db
    .selectFrom('activity')
    .select(['id', 'obligation_id', 'subject', 'to_address', 'approved_at', 'send_stale_at'])
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where(UNSETTLED)
    .orderBy('id')
    .execute();
}

/** Whether a message on the row newer than `id` was sent, or is claimed for sending. */
export async function laterMessageGoing(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
  id: number,
): Promise<boolean> {
  const later = await db
    .selectFrom('activity')
    .select('id')
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .where('status', 'in', ['approved', 'sent'])
    .where('id', '>', id)
    .limit(1)
    .executeTakeFirst();
  return later !== undefined;
}

/** Gives an unsettled claim its reason; false when its send recorded how it ended meanwhile. */
export async function settleClaim(db: Kysely<Database>, id: number, reason: string): Promise<boolean> {
  const r = await db
    .updateTable('activity')
    .set({ failure_reason: reason })
    .where('id', '=', id)
    .where(UNSETTLED)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
