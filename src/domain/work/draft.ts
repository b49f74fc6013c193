import { composeDraft } from './compose.ts';
import { findWork } from '../../store/repositories/work.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import type { ActivityRow, WorkRow } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';
import { insertActivity } from '../../store/repositories/activity.ts';
import type { DraftAnswer } from '../contract/work.ts';

export type { DraftAnswer } from '../contract/work.ts';

// POST /work/{id}/draft: guarantees a draft exists. A row that already has one gets it back
// unchanged; the desk never re-drafts (D15). It declines, with a reason a person can read,
// when nobody on the row can be written to or the row is finished.

/** The newest message on the row in state `drafted`, if any. */
export async function newestDraft(ctx: DeskContext, workId: number): Promise<ActivityRow | undefined> {
  return ctx.db
    .selectFrom('activity')
    .selectAll()
    .where('desk_id', '=', ctx.desk.id)
    .where('obligation_id', '=', workId)
    .where('kind', '=', 'message')
    .where('status', '=', 'drafted')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

function shown(m: ActivityRow): DraftAnswer {
  return { drafted: true, channel: m.channel, subject: m.subject ?? '', body: m.body, to: m.to_address ?? '' };
}

async function loadFacts(ctx: DeskContext, row: WorkRow): Promise<{ about: string | null; notes: string[] }> {
  let about: string | null = null;
  let notes: string[] = [];
  if (row.arrangement_id !== null) {
    const arr = await ctx.db.selectFrom('arrangements').select('name').where('desk_id', '=', ctx.desk.id).where('id', '=', row.arrangement_id).executeTakeFirst();
    about = arr?.name ?? null;
    const rows = await ctx.db
      .selectFrom('activity')
      .select('body')
      .where('desk_id', '=', ctx.desk.id)
      .where('arrangement_id', '=', row.arrangement_id)
      .where('kind', '=', 'note')
      .orderBy('id', 'desc')
      .limit(3)
      .execute();
    notes = rows.map((r) => r.body);
  }
  if (about === null && row.unit_id !== null) {
    const unit = await ctx.db.selectFrom('units').select('name').where('desk_id', '=', ctx.desk.id).where('id', '=', row.unit_id).executeTakeFirst();
    about = unit?.name ?? null;
  }
  return { about, notes };
}

async function decline(ctx: DeskContext, row: WorkRow, reason: string): Promise<DraftAnswer> {
  await logEvent(ctx, 'draft_declined', `Declined to draft for "${row.title}".`, { work_id: row.id, reason });
  return { drafted: false, reason };
}

export async function draftWork(ctx: DeskContext, workId: number): Promise<DraftAnswer> {
  return atomically(ctx, (tx) => draftIn(tx, workId));
}

async function draftIn(ctx: DeskContext, workId: number): Promise<DraftAnswer> {
  await lockRow(ctx, workId);
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);

  const existing = await newestDraft(ctx, row.id);
  if (isFinished(row.status)) {
    return decline(ctx, row, `This row is already ${row.status}; there is nothing left to write.`);
  }
  if (existing) return shown(existing);

  const email = row.contact_email?.trim();
  if (!email) {
    return decline(ctx, row, 'Nobody on this row can be written to. Say who it goes to, and the desk can draft it.');
  }

  const facts = await loadFacts(ctx, row);
  const draft = composeDraft({
    title: row.title,
    permission: row.class,
    due_date: row.due_date,
    today: ctx.today(),
    contact_name: row.contact_name,
    contact_email: email,
    waiting_on: row.waiting_on,
    waiting_since: row.waiting_since,
    about: facts.about,
    notes: facts.notes,
    signature: ctx.desk.name,
  });

  const now = ctx.now();
  const mine = await insertActivity(ctx.db, {
    deskId: ctx.desk.id,
    kind: 'message',
    workId: row.id,
    arrangementId: row.arrangement_id,
    channel: draft.channel,
    direction: 'outbound',
    subject: draft.subject,
    body: draft.body,
    to: draft.to,
    status: 'drafted',
    actor: 'desk',
    at: now,
  });

  // Two drafts racing on one row: the oldest drafted message wins and the other is withdrawn,
  // so the row never carries two prepared messages.
  const first = await ctx.db
    .selectFrom('activity')
    .selectAll()
    .where('desk_id', '=', ctx.desk.id)
    .where('obligation_id', '=', row.id)
    .where('kind', '=', 'message')
    .where('status', '=', 'drafted')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  if (first && first.id !== mine.id) {
    await ctx.db.deleteFrom('activity').where('id', '=', mine.id).where('status', '=', 'drafted').execute();
    return shown(first);
  }

  const who = row.contact_name ? `${row.contact_name} <${email}>` : email;
  await logEvent(ctx, 'drafted', `Drafted a message to ${who} for "${row.title}".`, { work_id: row.id, activity_id: mine.id, to: email });
  await logTimeline(ctx, row.id, 'drafted', `The desk drafted "${draft.subject}" to ${who}.`);
  return shown(mine);
}
