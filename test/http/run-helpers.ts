import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.ts';
import type { PlaybookStep } from '../../src/domain/playbooks.ts';
import { PORTAL_PASSWORD, PORTAL_USER } from '../helpers/portal.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { insertConnection } from '../../src/store/repositories/connections.ts';
import { makeDesk, makeWork } from '../helpers/factories.ts';

// Shared by the run-* test files: a portal login connection, playbooks, and a search of
// everything the desk stores for a string that must never be there.

export async function makeLoginConnection(
  db: Kysely<Database>,
  deskId: string,
  config: Record<string, unknown> = { username: PORTAL_USER, password: PORTAL_PASSWORD },
) {
  const id = await insertConnection(db, {
    desk_id: deskId,
    provider: 'gov-portal',
    name: 'Tax portal',
    category: 'filing',
    auth_type: 'login',
    status: 'connected',
    config: JSON.stringify(config),
    created_at: TEST_NOW,
  });
  return db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function makePlaybook(
  db: Kysely<Database>,
  deskId: string,
  name: string,
  steps: PlaybookStep[],
  connectionId: number | null,
) {
  return db
    .insertInto('playbooks')
    .values({ desk_id: deskId, name, connection_id: connectionId, steps: JSON.stringify(steps) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The business file's VAT playbook against a portal at `base`. */
export function vatSteps(base: string): PlaybookStep[] {
  return [
    { goto: `${base}/login` },
    { fill: '#user', value: '{{secret.username}}' },
    { fill: '#pass', value: '{{secret.password}}' },
    { click: 'button[type=submit]' },
    { fill: '#period', value: '{{work.due_date}}' },
    { click: '#submit-return' },
    { expect_text: 'Return received' },
    { read: '#reference', as: 'result' },
  ];
}

/** Every stored text the desk writes about its work (not the connection that holds the secret). */
export async function storedText(db: Kysely<Database>, deskId: string): Promise<string> {
  const parts = await Promise.all([
    db.selectFrom('activity').selectAll().where('desk_id', '=', deskId).execute(),
    db.selectFrom('events').selectAll().where('desk_id', '=', deskId).execute(),
    db.selectFrom('timeline').selectAll().where('desk_id', '=', deskId).execute(),
    db.selectFrom('work').selectAll().where('desk_id', '=', deskId).execute(),
    db.selectFrom('runs').selectAll().where('desk_id', '=', deskId).execute(),
    db.selectFrom('idempotency').selectAll().where('desk_id', '=', deskId).execute(),
  ]);
  return JSON.stringify(parts);
}

export async function runsOf(db: Kysely<Database>, deskId: string, workId: number) {
  return db
    .selectFrom('runs')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('work_id', '=', workId)
    .orderBy('id', 'asc')
    .execute();
}

export async function reportsOf(db: Kysely<Database>, deskId: string, workId: number) {
  return db
    .selectFrom('activity')
    .selectAll()
    .where('desk_id', '=', deskId)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'report')
    .orderBy('id', 'asc')
    .execute();
}

export async function openCount(db: Kysely<Database>, deskId: string): Promise<number> {
  const r = await db.selectFrom('desks').select('open_count').where('id', '=', deskId).executeTakeFirstOrThrow();
  return Number(r.open_count);
}

/** A desk granted `file`, and a row due today whose playbook files a return on the portal at `base`. */
export async function vatRow(db: Kysely<Database>, base: string) {
  const d = await makeDesk(db, { grants: ['file'] });
  const conn = await makeLoginConnection(db, d.desk.id);
  const pb = await makePlaybook(db, d.desk.id, 'file-vat-return', vatSteps(base), conn.id);
  const row = await makeWork(db, d.desk.id, {
    title: 'File VAT return',
    class: 'file',
    playbook_id: pb.id,
    due_date: TEST_NOW.slice(0, 10),
  });
  return { d, row };
}
