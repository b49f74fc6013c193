import { insertWork } from '../../store/repositories/work.ts';
import type { WorkRow } from '../../store/schema.ts';
import { actorName, type DeskContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { atomically, checkedAgainIfGone } from '../../store/tx.ts';
import { checkFields, type OwnerFields } from './fields.ts';

// The owner adds a row by hand (screen or CLI); the API never can.

export async function addWork(ctx: DeskContext, input: OwnerFields): Promise<WorkRow> {
  if (input.title === undefined) throw badRequest('A work item needs a title.', { field: 'title' });
  const f = await checkFields(ctx, input);
  return checkedAgainIfGone(
    () => write(ctx, f),
    () => checkFields(ctx, input),
  );
}

async function write(ctx: DeskContext, f: Awaited<ReturnType<typeof checkFields>>): Promise<WorkRow> {
  return atomically(ctx, async (tx) => {
    const now = tx.now();
    const row = await insertWork(tx.db, {
      desk_id: tx.desk.id,
      title: f.title!,
      detail: f.detail ?? null,
      kind: f.kind ?? 'general',
      status: 'open',
      due_date: f.due_date ?? null,
      priority: f.priority ?? 50,
      class: f.class ?? null,
      needs_person: f.needs_person ?? 0,
      chase_after_days: f.chase_after_days ?? 7,
      max_chases: f.max_chases ?? 3,
      contact_name: f.contact_name ?? null,
      contact_email: f.contact_email ?? null,
      waiting_on: f.waiting_on ?? null,
      waiting_since: f.waiting_on ? now : null,
      last_error: null,
      arrangement_id: f.arrangement_id ?? null,
      unit_id: f.unit_id ?? null,
      playbook_id: null,
      watch_id: null,
      watch_date: null,
      created_at: now,
      updated_at: now,
      closed_at: null,
    });
    const who = actorName(tx.actor);
    await logEvent(tx, 'work_created', `${who} added "${row.title}".`, { work_id: row.id, by: who });
    await logTimeline(tx, row.id, 'created', `${who} added this${row.due_date ? `, due ${row.due_date}` : ''}.`);
    return row;
  });
}
