import { actorName, type DeskContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { positiveId } from '../input.ts';
import { logEvent } from '../record.ts';
import { formEntry, readFormEntry, type FormValues } from '../business/form.ts';
import { readUnit, UNIT_FIELDS } from '../business/read.ts';
import { atomically } from '../../store/tx.ts';
import { isForeignKeyViolation } from '../../store/dialect.ts';
import { insertUnit } from '../../store/repositories/records.ts';
import { findArrangement, findUnit } from '../../store/repositories/rows.ts';
import { nextUnitPosition, updateUnit } from '../../store/repositories/setup.ts';
import { echoed } from '../text.ts';

// The owner adds or edits a unit, by the business file's rules for one. Its own columns are
// typed one a line, "lease_end: 2027-03-31"; a blank value is kept as empty (null).

/** "name: value" lines as the unit's columns, with what is wrong with them (null when nothing). */
export function fieldLines(text: string): { fields: Record<string, string | null>; problem: string | null } {
  // Without a prototype, `toString: x` is a column like any other, not one the object already has.
  const fields: Record<string, string | null> = Object.create(null);
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const at = line.indexOf(':');
    const name = at < 0 ? '' : line.slice(0, at).trim();
    if (!name)
      return {
        fields,
        problem: `Line ${i + 1} ("${echoed(line.trim())}") needs a name and a value, such as lease_end: 2027-03-31.`,
      };
    if (name in fields) return { fields, problem: `"${echoed(name)}" is given twice; each column once.` };
    const value = line.slice(at + 1).trim();
    fields[name] = value === '' ? null : value;
  }
  return { fields, problem: null };
}

/** A unit's columns as the form shows them, one a line. */
export function linesOf(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}: ${v === null || v === undefined ? '' : String(v)}`)
    .join('\n');
}

// A number written as JSON writes one: what `linesOf` shows of any finite number reads back to it.
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]?\d+)?$/i;

/**
 * The form's columns, each that was a number before kept a number while its text reads as one:
 * the form shows every column as text, and saving one column would otherwise turn the business
 * file's numbers into text in the API's answers.
 */
export function keptKinds(
  typed: Record<string, string | null>,
  before: Record<string, unknown>,
): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = Object.create(null);
  for (const [name, text] of Object.entries(typed)) {
    const was = Object.hasOwn(before, name) ? before[name] : undefined;
    const n = text !== null && NUMBER.test(text) ? Number(text) : Number.NaN;
    // Only a number kept as written: not one past 2^53 or out of range (P-import-11), which stays text.
    const exact = Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n));
    out[name] = typeof was === 'number' && exact ? n : text;
  }
  return out;
}

export async function saveUnit(
  ctx: DeskContext,
  id: number | null,
  form: FormValues,
  /** Whether an arrangement removed between its check and the write has the save checked again. */
  again = true,
): Promise<{ id: number; name: string; created: boolean }> {
  const extra: Record<string, string> = {};
  const lines = fieldLines(form.fields ?? '');
  if (lines.problem) extra.fields = lines.problem;
  const arrangementText = form.arrangement?.trim() ?? '';
  const arrangementId = arrangementText === '' ? null : positiveId(arrangementText);
  if (
    arrangementText !== '' &&
    (arrangementId === null || !(await findArrangement(ctx.db, ctx.desk.id, arrangementId)))
  )
    extra.arrangement = "Choose one of the desk's arrangements, or none.";

  try {
    return await write(ctx, id, lines.fields, form, extra, arrangementId);
  } catch (err) {
    // Removed meanwhile: checked again, the form now refuses it as the arrangement it no longer is.
    if (again && isForeignKeyViolation(err)) return saveUnit(ctx, id, form, false);
    throw err;
  }
}

async function write(
  ctx: DeskContext,
  id: number | null,
  typed: Record<string, string | null>,
  form: FormValues,
  extra: Record<string, string>,
  arrangementId: number | null,
): Promise<{ id: number; name: string; created: boolean }> {
  return atomically(ctx, async (tx) => {
    const before = id === null ? undefined : await findUnit(tx.db, tx.desk.id, id);
    if (id !== null && !before) throw notFound('unit', id);
    const fields = keptKinds(typed, before ? JSON.parse(before.fields) : {});
    const raw = { ...formEntry({ type: form.type, name: form.name }), fields };
    const plan = readFormEntry('unit', raw, UNIT_FIELDS, ctx.today(), (e) => readUnit(e, ctx.today()), extra);
    const values = {
      type: plan.type,
      name: plan.name,
      fields: JSON.stringify(plan.fields),
      arrangement_id: arrangementId,
    };
    let saved: number;
    if (before) {
      saved = before.id;
      await updateUnit(tx.db, tx.desk.id, saved, values);
    } else
      saved = await insertUnit(tx.db, {
        ...values,
        desk_id: tx.desk.id,
        position: await nextUnitPosition(tx.db, tx.desk.id),
      });
    const who = actorName(tx.actor);
    await logEvent(
      tx,
      before ? 'unit_changed' : 'unit_added',
      `${who} ${before ? 'changed' : 'added'} the ${plan.type} "${plan.name}".`,
      { unit_id: saved, by: who },
    );
    return { id: saved, name: plan.name, created: !before };
  });
}
