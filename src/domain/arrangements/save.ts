import { actorName, type DeskContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { logEvent } from '../record.ts';
import { formEntry, readFormEntry, type FormValues } from '../business/form.ts';
import { ARRANGEMENT_FIELDS, readArrangement, type ArrangementPlan } from '../business/read.ts';
import { atomically } from '../../store/tx.ts';
import { insertArrangement } from '../../store/repositories/records.ts';
import { findArrangement } from '../../store/repositories/rows.ts';
import { updateArrangement } from '../../store/repositories/setup.ts';
import { decimalOf, minorDigits, minorOf } from '../money.ts';
import { echoed } from '../text.ts';

// The owner adds or edits an arrangement, by the business file's rules for one.

const TEXT = [
  'name',
  'counterparty',
  'kind',
  'status',
  'starts_on',
  'ends_on',
  'renews_on',
  'currency',
  'contact_name',
  'contact_email',
] as const;

export function readArrangementForm(ctx: DeskContext, form: FormValues): Omit<ArrangementPlan, 'ref'> {
  const raw = formEntry(Object.fromEntries(TEXT.map((k) => [k, form[k]])));
  const extra: Record<string, string> = {};
  const amount = form.amount?.trim() ?? '';
  if (amount !== '') {
    // Typed in the currency's own units: 1250.50 GBP, 1500 JPY, kept in its minor units.
    const currency = form.currency?.trim().toUpperCase() || ctx.desk.currency;
    const minor = minorOf(amount, currency);
    if (minor === null)
      extra.amount = `Amount: "${echoed(amount)}" is not an amount in ${currency}, such as ${decimalOf(1250 * 10 ** minorDigits(currency), currency)}.`;
    // A refused amount stands in as 0, so the currency beside it is read as given with one.
    raw.amount_cents = minor ?? 0;
  } else if (raw.currency !== undefined) extra.currency = 'A currency goes with an amount: give both, or neither.';
  const { ref: _ref, ...plan } = readFormEntry(
    'arrangement',
    raw,
    ARRANGEMENT_FIELDS,
    ctx.today(),
    (e) => readArrangement(e, null, ctx.desk.currency),
    extra,
  );
  return plan;
}

export async function saveArrangement(
  ctx: DeskContext,
  id: number | null,
  form: FormValues,
): Promise<{ id: number; name: string; created: boolean }> {
  const plan = readArrangementForm(ctx, form);
  return atomically(ctx, async (tx) => {
    const before = id === null ? undefined : await findArrangement(tx.db, tx.desk.id, id);
    if (id !== null && !before) throw notFound('arrangement', id);
    let saved: number;
    if (before) {
      saved = before.id;
      await updateArrangement(tx.db, tx.desk.id, saved, plan);
    } else saved = await insertArrangement(tx.db, { ...plan, desk_id: tx.desk.id, created_at: tx.now() });
    const who = actorName(tx.actor);
    const changed = before
      ? (Object.keys(plan) as Array<keyof typeof plan>).filter((k) => String(before[k]) !== String(plan[k]))
      : [];
    await logEvent(
      tx,
      before ? 'arrangement_changed' : 'arrangement_added',
      before
        ? `${who} changed the arrangement "${plan.name}"${changed.length ? `: ${changed.join(', ').replace(/_/g, ' ')}` : ''}.`
        : `${who} added the arrangement "${plan.name}".`,
      { arrangement_id: saved, ...(before ? { fields: changed } : {}), by: who },
    );
    return { id: saved, name: plan.name, created: !before };
  });
}
