// A desk with `n` open rows for the benchmarks: mixed kinds, classes, due dates and waits, a
// third on one arrangement, written through the work repository so its counts are kept.
import { insertWorkMany } from '../src/store/repositories/work.ts';
import type { TestStore } from '../test/helpers/db.ts';

export async function fill(store: TestStore, deskId: string, n: number): Promise<void> {
  const now = '2026-11-22T10:00:00.000Z';
  const arrangement = await store.db
    .insertInto('arrangements')
    .values({
      desk_id: deskId,
      name: 'Lease',
      counterparty: 'Acme',
      kind: 'lease',
      status: 'active',
      starts_on: null,
      ends_on: null,
      renews_on: null,
      amount_cents: null,
      currency: null,
      contact_name: null,
      contact_email: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows: Parameters<typeof insertWorkMany>[1][number][] = [];
  for (let i = 0; i < n; i++) {
    const due =
      i % 5 === 0 ? null : `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    rows.push({
      desk_id: deskId,
      title: `Row ${i}`,
      detail: null,
      kind: i % 2 ? 'filing' : 'licence_renewal',
      status: i % 7 === 0 ? 'waiting' : 'open',
      due_date: due,
      priority: 1 + (i % 100),
      class: ['chase', 'file', 'reach_out', null][i % 4] ?? null,
      needs_person: 0,
      chase_after_days: 7,
      contact_name: 'Sam',
      contact_email: 'sam@example.test',
      waiting_on: i % 7 === 0 ? 'Sam' : null,
      waiting_since: i % 7 === 0 ? now : null,
      last_error: null,
      arrangement_id: i % 3 === 0 ? arrangement.id : null,
      unit_id: null,
      playbook_id: null,
      watch_id: null,
      watch_date: null,
      created_at: now,
      updated_at: now,
      closed_at: null,
    });
  }
  await store.db.transaction().execute((trx) => insertWorkMany(trx, rows));
}
