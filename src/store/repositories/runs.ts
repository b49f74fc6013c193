import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, RunRow } from '../schema.ts';
import type { StaleLine } from './stale-line.ts';

export type { StaleLine } from './stale-line.ts';

// The record of each run on a work row: one row per attempt, `running` while under way.

type RunsEb = ExpressionBuilder<Database, 'runs'>;

function isStale(eb: RunsEb, line: StaleLine) {
  return eb.or([
    eb('runs.stale_at', '<', line.now),
    eb.and([eb('runs.stale_at', 'is', null), eb('runs.started_at', '<', line.legacyBefore)]),
  ]);
}

function isUnderWay(eb: RunsEb, line: StaleLine) {
  return eb.or([
    eb('runs.stale_at', '>=', line.now),
    eb.and([eb('runs.stale_at', 'is', null), eb('runs.started_at', '>=', line.legacyBefore)]),
  ]);
}

export async function insertRun(
  db: Kysely<Database>,
  r: { deskId: string; workId: number; how: string; priorStatus: string; at: string; staleAt: string },
): Promise<RunRow> {
  return db
    .insertInto('runs')
    .values({
      desk_id: r.deskId,
      work_id: r.workId,
      status: 'running',
      how: r.how,
      prior_status: r.priorStatus,
      started_at: r.at,
      stale_at: r.staleAt,
      finished_at: null,
      ms: null,
      report: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function finishRun(
  db: Kysely<Database>,
  id: number,
  r: { status: string; at: string; ms: number; report: unknown },
): Promise<void> {
  await db
    .updateTable('runs')
    .set({ status: r.status, finished_at: r.at, ms: r.ms, report: JSON.stringify(r.report) })
    .where('id', '=', id)
    .execute();
}

/** Runs on one row still marked `running`: under way, or left so by a process that stopped. */
function running(db: Kysely<Database>, deskId: string, workId: number) {
  return db
    .selectFrom('runs')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('work_id', '=', workId)
    .where('status', '=', 'running');
}

/** Runs on the row still under way, newest first; those past the line are taken as abandoned. */
export async function runningOn(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
  line: StaleLine,
): Promise<RunRow[]> {
  return running(db, deskId, workId)
    .where((eb) => isUnderWay(eb, line))
    .orderBy('id', 'desc')
    .execute();
}

/**
 * The rows other than `exceptId` a run is writing a message on now (a send, or a draft and its
 * send, still under way): each row's id and contact (the runs_running index).
 */
export async function rowsBeingWritten(
  db: Kysely<Database>,
  deskId: string,
  exceptId: number,
  line: StaleLine,
): Promise<Array<{ id: number; contact_email: string | null }>> {
  return db
    .selectFrom('runs')
    .innerJoin('work', 'work.id', 'runs.work_id')
    .select(['work.id as id', 'work.contact_email as contact_email'])
    .where('runs.desk_id', '=', deskId)
    .where('runs.status', '=', 'running')
    .where((eb) => isUnderWay(eb, line))
    .where('runs.how', 'in', ['send', 'draft_send'])
    .where('runs.work_id', '!=', exceptId)
    .execute();
}

/** The newest run on the row left `running` by a process that stopped, if any. */
export async function abandonedOn(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
  line: StaleLine,
): Promise<RunRow | undefined> {
  return running(db, deskId, workId)
    .where((eb) => isStale(eb, line))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Marks runs left `running` by a stopped process as abandoned, so they no longer count as under way. */
export async function closeAbandoned(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
  line: StaleLine,
  at: string,
): Promise<void> {
  await db
    .updateTable('runs')
    .set({ status: 'abandoned', finished_at: at })
    .where('desk_id', '=', deskId)
    .where('work_id', '=', workId)
    .where('status', '=', 'running')
    .where((eb) => isStale(eb, line))
    .execute();
}

/** Runs of the desk still marked `running` though past the line, oldest first. */
export async function staleRuns(
  db: Kysely<Database>,
  deskId: string,
  line: StaleLine,
  most: number,
): Promise<RunRow[]> {
  return db
    .selectFrom('runs')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('status', '=', 'running')
    .where((eb) => isStale(eb, line))
    .orderBy('started_at')
    .limit(most)
    .execute();
}

/** Whether the run is still marked `running`. */
export async function stillRunning(db: Kysely<Database>, id: number): Promise<boolean> {
  const r = await db
    .selectFrom('runs')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return r !== undefined;
}
