import type { Kysely } from 'kysely';
import type { ActivityRow, Database } from '../schema.ts';

// The activity table: messages, notes and run reports. Every entry is written here, so the
// sixteen columns are spelled once.

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
  failureReason?: string | null;
  sentAt?: string | null;
  approvedAt?: string | null;
}

export async function insertActivity(db: Kysely<Database>, a: NewActivity): Promise<ActivityRow> {
  return db
    .insertInto('activity')
    .values({
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
      status: a.status,
      actor: a.actor,
      failure_reason: a.failureReason ?? null,
      created_at: a.at,
      sent_at: a.sentAt ?? null,
      approved_at: a.approvedAt ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
