import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function addEvent(
  db: Kysely<Database>,
  e: { deskId: string; kind: string; message: string; data?: Record<string, unknown>; at: string },
): Promise<void> {
  await db
    .insertInto('events')
    .values({ desk_id: e.deskId, kind: e.kind, message: e.message, data: JSON.stringify(e.data ?? {}), created_at: e.at })
    .execute();
}

export async function addTimeline(db: Kysely<Database>, e: { deskId: string; workId: number; kind: string; text: string; at: string }): Promise<void> {
  await db.insertInto('timeline').values({ desk_id: e.deskId, work_id: e.workId, kind: e.kind, text: e.text, at: e.at }).execute();
}
