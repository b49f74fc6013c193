import type { Kysely } from 'kysely';
import type { Database, WorkRow } from '../schema.ts';

type Status = 'done' | 'closed';

/**
 * The two walks that list a desk's finished rows: the dated ones down `work_closed`, most
 * recently finished first, then the undated ones (imported with no day). PostgreSQL walks that
 * index backwards only with its nulls first: given one ORDER BY putting them last, it read the
 * whole table and sorted the desk's finished rows (300,000 rows, with statistics).
 */
export function finishedWalks(db: Kysely<Database>, deskId: string, status: Status, limit: number, kind?: string) {
  const all = db.selectFrom('work').selectAll().where('desk_id', '=', deskId).where('status', '=', status);
  const finished = kind === undefined ? all : all.where('kind', '=', kind);
  return {
    dated: finished.where('closed_at', 'is not', null).orderBy('closed_at', 'desc').orderBy('id', 'desc').limit(limit),
    undated: (left: number) => finished.where('closed_at', 'is', null).orderBy('id', 'desc').limit(left),
  };
}

/** A desk's done or closed rows (of one kind, when given), most recently finished first; rows imported with no day last. */
export async function findFinishedWork(
  db: Kysely<Database>,
  deskId: string,
  status: Status,
  limit: number,
  kind?: string,
): Promise<WorkRow[]> {
  const walks = finishedWalks(db, deskId, status, limit, kind);
  const dated = await walks.dated.execute();
  if (dated.length >= limit) return dated;
  return [...dated, ...(await walks.undated(limit - dated.length).execute())];
}
