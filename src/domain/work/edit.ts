import { findWork, updateWork } from '../../store/repositories/work.ts';
import { draftsOn, readdressDrafts, reviseDraftText } from '../../store/repositories/activity.ts';
import type { WorkRow } from '../../store/schema.ts';
import { actorName, type DeskContext } from '../context.ts';
import { echoed } from '../text.ts';
import { badRequest, notFound } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { atomically, checkedAgainIfGone, lockRow } from '../../store/tx.ts';
import { isUniqueViolation } from '../../store/dialect.ts';
import { regreet } from './compose.ts';
import { checkFields, type OwnerFields } from './fields.ts';
import { sameAddress } from '../mail/address.ts';
import type { Acted } from './acted.ts';

// The owner changes a row's fields (never its status: close and reopen do that). Clearing the
// fault is an edit too: the owner has looked and dealt with it.

export interface EditInput extends OwnerFields {
  clear_error?: boolean;
}

export async function editWork(ctx: DeskContext, workId: number, input: EditInput): Promise<Acted> {
  const f = await checkFields(ctx, input);
  const changes = Object.keys(f);
  if (changes.length === 0 && !input.clear_error) throw badRequest('Nothing to change: give at least one field.');
  try {
    return await checkedAgainIfGone(
      () => write(ctx, workId, input, f),
      () => checkFields(ctx, input),
    );
  } catch (err) {
    // A row a watch made, whose unit was removed, given a unit that has the watch's row for its date.
    if (isUniqueViolation(err) && f.unit_id !== undefined)
      throw badRequest(
        `That unit already has the row its watch made for this date; close this row if it is not needed.`,
        { field: 'unit_id' },
      );
    throw err;
  }
}

async function write(
  ctx: DeskContext,
  workId: number,
  input: EditInput,
  given: Awaited<ReturnType<typeof checkFields>>,
): Promise<Acted> {
  return atomically(ctx, async (tx) => {
    await lockRow(tx, workId);
    const row = await findWork(tx.db, tx.desk.id, workId);
    if (!row) throw notFound('work item', workId);
    // A field given the value it holds is no change: the record names only what did change,
    // and an edit the row already matches writes nothing at all (P-cli-28).
    const f = Object.fromEntries(
      Object.entries(given).filter(([k, v]) => row[k as keyof typeof given] !== v),
    ) as typeof given;
    const changes = Object.keys(f);
    const clearError = input.clear_error === true && row.last_error !== null;
    if (changes.length === 0 && !clearError)
      return {
        row,
        unchanged:
          Object.keys(given).length === 0
            ? 'has no fault to clear'
            : input.clear_error
              ? 'already has those values and no fault to clear'
              : 'already has those values',
      };
    // A watch knows the rows it made by their unit, and once it is removed by their kind too: a
    // row moved off either would have the watch, or one made again, open its date again
    // (P-watches-5). Its date (`watch_date`) says a watch made it, whether or not it still exists.
    const watchMade = row.watch_date !== null;
    if (f.unit_id !== undefined && watchMade && row.unit_id !== null && f.unit_id !== row.unit_id)
      throw badRequest(
        `This row was opened by a watch for its unit, so it stays on that unit; close it if it is not needed.`,
        { field: 'unit_id' },
      );
    if (f.kind !== undefined && watchMade && f.kind !== row.kind)
      throw badRequest(
        `This row was opened by a watch as "${echoed(row.kind)}" work, so it keeps that kind; close it if it is not needed.`,
        { field: 'kind' },
      );
    const now = tx.now();
    const patch: Parameters<typeof updateWork>[3] = { ...f, updated_at: now };
    if (clearError) patch.last_error = null;
    // Somebody newly awaited starts the waiting clock; nobody awaited stops it.
    if (f.waiting_on !== undefined && f.waiting_on !== row.waiting_on) patch.waiting_since = f.waiting_on ? now : null;
    await updateWork(tx.db, tx.desk.id, row.id, patch);
    // A contact's address corrected corrects the prepared message that went to the old one:
    // the desk may send it on its own, and must not send it to an address the owner replaced.
    const old = row.contact_email?.trim();
    const corrected =
      old && f.contact_email && !sameAddress(f.contact_email, old)
        ? await readdressDrafts(tx.db, tx.desk.id, row.id, old, f.contact_email)
        : 0;
    const regreeted = f.contact_name !== undefined ? await regreetDrafts(tx, row, f.contact_name) : 0;
    const named = changes.map((c) =>
      c
        .replace(/_id$/, '')
        .replace(/_date$/, '')
        .replace(/_/g, ' '),
    );
    const what = [...named, ...(clearError ? ['cleared the fault'] : [])];
    const did = [named.length ? `changed ${named.join(', ')}` : '', clearError ? 'cleared the fault' : '']
      .filter((s) => s !== '')
      .join(' and ');
    const who = actorName(tx.actor);
    await logEvent(tx, 'work_edited', `${who} edited "${row.title}": ${what.join(', ')}.`, {
      work_id: row.id,
      fields: changes,
      by: who,
    });
    const readdressed = corrected > 0 ? ` Its prepared message now goes to ${f.contact_email}.` : '';
    const greets =
      regreeted > 0 ? ` Its prepared message now greets ${f.contact_name?.trim() || 'nobody by name'}.` : '';
    await logTimeline(tx, row.id, 'edited', `${who} ${did}.${readdressed}${greets}`);
    return { row: (await findWork(tx.db, tx.desk.id, row.id))!, unchanged: null };
  });
}

// A contact's name changed: a prepared message that still greets the old name as the desk wrote
// it greets the new one. A greeting the owner rewrote is theirs and stays.
async function regreetDrafts(tx: DeskContext, row: WorkRow, name: string | null): Promise<number> {
  let changed = 0;
  for (const d of await draftsOn(tx.db, tx.desk.id, row.id)) {
    const body = regreet(d.body, row.contact_name, name);
    if (body === null) continue;
    await reviseDraftText(tx.db, tx.desk.id, d.id, d.subject, body);
    changed++;
  }
  return changed;
}
