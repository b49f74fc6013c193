import { actorName, type DeskContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { logEvent } from '../record.ts';
import { formEntry, readFormEntry, type FormValues } from '../business/form.ts';
import { readWatch, WATCH_FIELDS } from '../business/read.ts';
import { atomically } from '../../store/tx.ts';
import { insertWatch } from '../../store/repositories/records.ts';
import { findWatch, updateWatch } from '../../store/repositories/setup.ts';
import { setWatchRowsKind } from '../../store/repositories/work.ts';

// The owner adds or edits a watch, by the business file's rules for one.

/** The watch form's words for the fields whose file names say less to an owner. */
export const WATCH_LABELS = {
  subject_type: 'Unit type',
  field: 'Date column',
  lead_days: 'Days ahead',
  every: 'Comes round every',
  kind: 'Kind of work',
  action: 'Permission class of the work',
} as const;

export async function saveWatch(
  ctx: DeskContext,
  id: number | null,
  form: FormValues,
): Promise<{ id: number; name: string; created: boolean }> {
  const raw = formEntry(Object.fromEntries(WATCH_FIELDS.map((k) => [k, form[k]])), ['lead_days', 'priority']);
  const plan = readFormEntry('watch', raw, WATCH_FIELDS, ctx.today(), readWatch, {}, WATCH_LABELS);
  return atomically(ctx, async (tx) => {
    const before = id === null ? undefined : await findWatch(tx.db, tx.desk.id, id);
    if (id !== null && !before) throw notFound('watch', id);
    let saved: number;
    if (before) {
      saved = before.id;
      await updateWatch(tx.db, tx.desk.id, saved, plan);
      // Rows a removed watch made count for a watch of their kind on their unit (P-watches-2).
      if (plan.kind !== before.kind) await setWatchRowsKind(tx.db, tx.desk.id, saved, plan.kind);
    } else saved = await insertWatch(tx.db, { ...plan, desk_id: tx.desk.id });
    const who = actorName(tx.actor);
    await logEvent(
      tx,
      before ? 'watch_changed' : 'watch_added',
      `${who} ${before ? 'changed' : 'added'} the watch "${plan.label}" on each ${plan.subject_type}'s ${plan.field}.`,
      { watch_id: saved, by: who },
    );
    return { id: saved, name: plan.label, created: !before };
  });
}
