import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.ts';
import { findWork, rowsWithDrafts } from '../../src/store/repositories/work.ts';
import { toWorkItem } from '../../src/domain/work/derive.ts';
import { dateIn } from '../../src/domain/dates.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { insertConnection } from '../../src/store/repositories/connections.ts';

export { makeArrangement } from '../helpers/factories.ts';

// Shared by the writes-* test files: a mailbox connection, a work item as a client sees it,
// and the desk's log.

export async function connectMailbox(
  db: Kysely<Database>,
  deskId: string,
  port: number,
  status = 'connected',
): Promise<void> {
  await insertConnection(db, {
    desk_id: deskId,
    provider: 'smtp',
    name: 'Office mail',
    category: 'mail',
    auth_type: 'login',
    status,
    config: JSON.stringify({
      host: '127.0.0.1',
      port,
      secure: false,
      starttls: false,
      user: 'desk',
      pass: 'secret',
      from: 'desk@bakery.test',
    }),
    created_at: TEST_NOW,
  });
}

export async function itemOf(db: Kysely<Database>, deskId: string, id: number) {
  const row = await findWork(db, deskId, id);
  if (!row) throw new Error(`no row ${id}`);
  const grants = new Set(
    (await db.selectFrom('grants').select('class').where('desk_id', '=', deskId).execute()).map((g) => g.class),
  );
  const drafts = await rowsWithDrafts(db, deskId, [id]);
  return toWorkItem({
    row,
    hasDraft: drafts.has(id),
    draftTo: drafts.get(id),
    grants,
    today: dateIn('UTC', new Date(TEST_NOW)),
    timezone: 'UTC',
  });
}

export async function eventsOf(db: Kysely<Database>, deskId: string, kind?: string) {
  let q = db.selectFrom('events').selectAll().where('desk_id', '=', deskId);
  if (kind) q = q.where('kind', '=', kind);
  const rows = await q.orderBy('id', 'asc').execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
}

export async function messagesOf(db: Kysely<Database>, deskId: string, workId: number) {
  return db
    .selectFrom('activity')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .orderBy('id', 'asc')
    .execute();
}

export async function timelineOf(db: Kysely<Database>, deskId: string, workId: number) {
  return db
    .selectFrom('timeline')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('work_id', '=', workId)
    .orderBy('id', 'asc')
    .execute();
}
