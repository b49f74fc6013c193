import type { Kysely } from 'kysely';
import type { Database, DeskRow, WorkRow } from '../../src/store/schema.ts';
import { createDesk } from '../../src/domain/desks/manage.ts';
import { createKey } from '../../src/domain/keys/create.ts';
import { setGrant } from '../../src/domain/grants/manage.ts';
import { insertWork, insertWorkMany } from '../../src/store/repositories/work.ts';
import { TEST_NOW } from './app.ts';

// Factories for the rows tests need; each takes only what the test cares about.

let seq = 0;

export async function makeDesk(
  db: Kysely<Database>,
  over: Partial<{ name: string; slug: string; timezone: string; currency: string; grants: string[] }> = {},
): Promise<{ desk: DeskRow; key: string; keyId: number; prefix: string }> {
  seq += 1;
  const desk = await createDesk(
    db,
    {
      name: over.name ?? `Test Desk ${seq}`,
      slug: over.slug ?? `test-desk-${seq}-${Date.now().toString(36)}`,
      timezone: over.timezone,
      currency: over.currency,
    },
    TEST_NOW,
  );
  for (const cls of over.grants ?? [])
    await setGrant(db, { deskId: desk.id, cls, granted: true, now: TEST_NOW, by: 'test' });
  const k = await createKey(db, { deskId: desk.id, name: 'test key', now: TEST_NOW });
  return { desk, key: k.key, keyId: k.id, prefix: k.prefix };
}

export type WorkOver = Partial<Omit<WorkRow, 'id' | 'desk_id' | 'due_key'>>;

/** The values of a work row with sensible defaults; `makeWork` and `makeWorkMany` insert them. */
export function workValues(deskId: string, over: WorkOver = {}) {
  return {
    desk_id: deskId,
    title: over.title ?? 'A piece of work',
    detail: over.detail ?? null,
    kind: over.kind ?? 'general',
    status: over.status ?? 'open',
    due_date: over.due_date ?? null,
    priority: over.priority ?? 50,
    class: over.class ?? null,
    needs_person: over.needs_person ?? 0,
    chase_after_days: over.chase_after_days ?? 7,
    ...(over.chases !== undefined ? { chases: over.chases } : {}),
    ...(over.max_chases !== undefined ? { max_chases: over.max_chases } : {}),
    contact_name: over.contact_name ?? null,
    contact_email: over.contact_email ?? null,
    waiting_on: over.waiting_on ?? null,
    waiting_since: over.waiting_since ?? null,
    last_error: over.last_error ?? null,
    arrangement_id: over.arrangement_id ?? null,
    unit_id: over.unit_id ?? null,
    playbook_id: over.playbook_id ?? null,
    watch_id: over.watch_id ?? null,
    watch_date: over.watch_date ?? null,
    created_at: over.created_at ?? TEST_NOW,
    updated_at: over.updated_at ?? TEST_NOW,
    closed_at: over.closed_at ?? null,
    replied_at: over.replied_at ?? null,
  };
}

export async function makeWork(db: Kysely<Database>, deskId: string, over: WorkOver = {}): Promise<WorkRow> {
  return insertWork(db, workValues(deskId, over));
}

/** Many rows in a few statements, keeping the desk's open count right. */
export async function makeWorkMany(db: Kysely<Database>, deskId: string, rows: readonly WorkOver[]): Promise<void> {
  await db.transaction().execute((trx) =>
    insertWorkMany(
      trx,
      rows.map((r) => workValues(deskId, r)),
    ),
  );
}

export async function makeDraft(
  db: Kysely<Database>,
  deskId: string,
  workId: number,
  over: Partial<{ subject: string; body: string; to: string; status: string; sentAt: string }> = {},
) {
  return db
    .insertInto('activity')
    .values({
      desk_id: deskId,
      kind: 'message',
      obligation_id: workId,
      arrangement_id: null,
      outcome_id: null,
      channel: 'email',
      direction: 'outbound',
      subject: over.subject ?? 'Subject',
      body: over.body ?? 'Body',
      to_address: over.to ?? 'someone@example.test',
      status: over.status ?? 'drafted',
      actor: 'desk',
      failure_reason: null,
      created_at: TEST_NOW,
      sent_at: over.sentAt ?? null,
      approved_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeArrangement(db: Kysely<Database>, deskId: string, name = 'High Street lease') {
  return db
    .insertInto('arrangements')
    .values({
      desk_id: deskId,
      name,
      counterparty: 'Shah Properties',
      kind: 'lease',
      status: 'active',
      starts_on: null,
      ends_on: null,
      renews_on: null,
      amount_cents: null,
      currency: null,
      contact_name: 'Priya Shah',
      contact_email: 'priya@landlord.test',
      created_at: TEST_NOW,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
