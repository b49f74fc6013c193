import type { Insertable, Kysely } from 'kysely';
import { prepared } from '../prepared.ts';
import type { Database } from '../schema.ts';

export async function addEvent(
  db: Kysely<Database>,
  e: { deskId: string; kind: string; message: string; data?: Record<string, unknown>; at: string },
): Promise<void> {
  await newEvent.run(db, {
    desk_id: e.deskId,
    kind: e.kind,
    message: e.message,
    data: JSON.stringify(e.data ?? {}),
    created_at: e.at,
  });
}

const newEvent = prepared((db, row: Insertable<Database['events']>) => db.insertInto('events').values(row));

const newTimeline = prepared((db, row: Insertable<Database['timeline']>) => db.insertInto('timeline').values(row));

export interface NewTimeline {
  deskId: string;
  workId: number;
  kind: string;
  text: string;
  at: string;
}

function timelineValues(e: NewTimeline) {
  return { desk_id: e.deskId, work_id: e.workId, kind: e.kind, text: e.text, at: e.at };
}

export async function addTimeline(db: Kysely<Database>, e: NewTimeline): Promise<void> {
  await newTimeline.run(db, timelineValues(e));
}

/** Many timeline entries at once, in statements of a thousand (an import's rows). */
export async function addTimelineMany(db: Kysely<Database>, list: readonly NewTimeline[], chunk = 1000): Promise<void> {
  for (let start = 0; start < list.length; start += chunk)
    await db
      .insertInto('timeline')
      .values(list.slice(start, start + chunk).map(timelineValues))
      .execute();
}

/** The desk log, newest first (/events). */
export async function recentEvents(db: Kysely<Database>, deskId: string, limit: number) {
  return db
    .selectFrom('events')
    .select(['id', 'kind', 'message', 'data', 'created_at'])
    .where('desk_id', '=', deskId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A work row's timeline, oldest first. */
export async function timelineOf(db: Kysely<Database>, deskId: string, workId: number) {
  return db
    .selectFrom('timeline')
    .select(['kind', 'at', 'text'])
    .where('desk_id', '=', deskId)
    .where('work_id', '=', workId)
    .orderBy('at')
    .orderBy('id')
    .execute();
}
