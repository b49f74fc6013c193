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

/**
 * "name: value" lines as the unit's columns, with what is wrong with them (null when nothing).
 * A stored column whose lines are as the form drew them is kept as it is stored: a name with a
 * colon, a value over several lines, an empty name (a business file may hold any of them) would
 * otherwise read back as other columns, and a save that changed nothing would change them.
 */
export function fieldLines(
  text: string,
  stored: Record<string, unknown> = {},
): { fields: Record<string, unknown>; problem: string | null } {
  // Without a prototype, `toString: x` is a column like any other, not one the object already has.
  const fields: Record<string, unknown> = Object.create(null);
  const lines = text.split(/\r?\n/);
  const drawn = Object.entries(stored).map(([name, value]) => ({
    name,
    value,
    lines: lineOf(name, value).split('\n'),
  }));
  for (let i = 0; i < lines.length; ) {
    const at = i;
    const same = drawn
      .filter((d) => !(d.name in fields) && d.lines.every((l, k) => lines[at + k] === l))
      .sort((a, b) => b.lines.length - a.lines.length)[0];
    if (same) {
      fields[same.name] = same.value;
      i += same.lines.length;
      continue;
    }
    const line = lines[i++]!;
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!name)
      return {
        fields,
        problem: `Line ${at + 1} ("${echoed(line.trim())}") needs a name and a value, such as lease_end: 2027-03-31.`,
      };
    if (name in fields) return { fields, problem: `"${echoed(name)}" is given twice; each column once.` };
    const value = line.slice(colon + 1).trim();
    fields[name] = value === '' ? null : value;
  }
  return { fields, problem: null };
}

function lineOf(name: string, value: unknown): string {
  return `${name}: ${value === null || value === undefined ? '' : String(value)}`;
}

/** A unit's columns as the form shows them, one a line. */
export function linesOf(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => lineOf(k, v))
    .join('\n');
}

// A number written as JSON writes one: what `linesOf` shows of any finite number reads back to it.
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]?\d+)?$/i;

/**
 * The form's columns, each that was a number before kept a number while its text reads as one:
 * the form shows every column as text, and saving one column would otherwise turn the business
 * file's numbers into text in the API's answers.
 */
export function keptKinds(typed: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, text] of Object.entries(typed)) {
    // A column kept as it was stored (fieldLines) is what it was.
    if (text !== null && typeof text !== 'string') {
      out[name] = text;
      continue;
    }
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
  const arrangementText = form.arrangement?.trim() ?? '';
  const arrangementId = arrangementText === '' ? null : positiveId(arrangementText);
  if (
    arrangementText !== '' &&
    (arrangementId === null || !(await findArrangement(ctx.db, ctx.desk.id, arrangementId)))
  )
    extra.arrangement = "Choose one of the desk's arrangements, or none.";

  try {
    return await write(ctx, id, form, extra, arrangementId);
  } catch (err) {
    // Removed meanwhile: checked again, the form now refuses it as the arrangement it no longer is.
    if (again && isForeignKeyViolation(err)) return saveUnit(ctx, id, form, false);
    throw err;
  }
}

async function write(
  ctx: DeskContext,
  id: number | null,
  form: FormValues,
  given: Record<string, string>,
  arrangementId: number | null,
): Promise<{ id: number; name: string; created: boolean }> {
  return atomically(ctx, async (tx) => {
    const before = id === null ? undefined : await findUnit(tx.db, tx.desk.id, id);
    if (id !== null && !before) throw notFound('unit', id);
    // Read against the columns as stored now, in the transaction that writes them.
    const stored: Record<string, unknown> = before ? JSON.parse(before.fields) : {};
    const lines = fieldLines(form.fields ?? '', stored);
    const extra = lines.problem ? { ...given, fields: lines.problem } : given;
    const fields = keptKinds(lines.fields, stored);
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
