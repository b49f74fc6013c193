import type { DeskContext } from '../context.ts';
import { isEmailAddress, notAnAddress } from '../mail/address.ts';
import { FIRST_DAY, isBeforeFirstDay, isOffsetOutOfRange, LAST_DAY, resolveDate } from '../dates.ts';
import { badRequest, DeskError } from '../errors.ts';
import { MAX_ID } from '../input.ts';
import { withinLimit } from '../limits.ts';
import { isPermissionClass, PERMISSION_CLASSES } from '../vocab.ts';
import { onDesk } from '../../store/repositories/desks.ts';
import { echoed } from '../text.ts';

// The owner's fields on a work row, as the screen and the CLI send them, checked once for both
// adding and editing. Text arrives as typed; dates may be relative to the desk's today. A
// refusal names its field (`details.field`), so the screen can say it beside that input.

export interface OwnerFields {
  title?: string;
  detail?: string | null;
  kind?: string;
  due?: string | null;
  priority?: number | string;
  class?: string | null;
  needs_person?: boolean;
  chase_after_days?: number | string;
  /** Unanswered chases before the desk stops and a person follows the row up. */
  max_chases?: number | string;
  contact_name?: string | null;
  contact_email?: string | null;
  waiting_on?: string | null;
  arrangement_id?: number | string | null;
  unit_id?: number | string | null;
}

export interface CheckedFields {
  title?: string;
  detail?: string | null;
  kind?: string;
  due_date?: string | null;
  priority?: number;
  class?: string | null;
  needs_person?: number;
  chase_after_days?: number;
  max_chases?: number;
  contact_name?: string | null;
  contact_email?: string | null;
  waiting_on?: string | null;
  arrangement_id?: number | null;
  unit_id?: number | null;
}

/** Typed as text, a number is its digits: "0x10", "1e1" and "2.0" are not how it is written. */
const digits = (raw: number | string): number =>
  typeof raw === 'number' ? raw : /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;

function wholeNumber(raw: number | string, name: string, min: number, max: number): number {
  const n = digits(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw badRequest(`${name} must be a whole number from ${min} to ${max}, not "${echoed(raw)}".`, { field: name });
  return n;
}

function optionalText(raw: string | null | undefined): string | null {
  const t = raw?.trim();
  return t ? t : null;
}

async function rowOnDesk(
  ctx: DeskContext,
  table: 'arrangements' | 'units',
  raw: number | string,
  what: 'arrangement' | 'unit',
): Promise<number> {
  const id = digits(raw);
  // Past MAX_ID no row has it, and PostgreSQL would refuse the number itself.
  const found = Number.isInteger(id) && id > 0 && id <= MAX_ID ? await onDesk(ctx.db, table, ctx.desk.id, id) : false;
  if (!found) throw badRequest(`There is no ${what} ${raw} on this desk.`, { field: `${what}_id` });
  return id;
}

/** One field refused by checkFields, with the name the screen's form uses for it. */
export interface FieldFault {
  field: string;
  message: string;
}

/**
 * The owner's fields checked and read. Every field is looked at, so a form or a command with
 * several mistakes hears of all of them at once: one mistake is refused as itself; several as
 * a summary whose details list each (`errors` as lines, `fields` by field).
 */
export async function checkFields(ctx: DeskContext, f: OwnerFields): Promise<CheckedFields> {
  const out: CheckedFields = {};
  const faults: FieldFault[] = [];
  const field = async (read: () => void | Promise<void>) => {
    try {
      await read();
    } catch (err) {
      if (!(err instanceof DeskError) || err.code !== 'bad_request') throw err;
      faults.push({ field: String(err.details?.field ?? ''), message: err.message });
    }
  };
  await field(() => {
    if (f.title === undefined) return;
    const t = f.title.trim();
    if (!t) throw badRequest('A work item needs a title.', { field: 'title' });
    out.title = withinLimit('title', t);
  });
  await field(() => {
    if (f.detail !== undefined) out.detail = withinLimit('detail', optionalText(f.detail));
  });
  await field(() => {
    if (f.kind === undefined) return;
    const k = f.kind.trim();
    if (!k) throw badRequest('kind must not be empty.', { field: 'kind' });
    out.kind = withinLimit('kind', k);
  });
  await field(() => {
    if (f.due === undefined) return;
    if (f.due === null || f.due.trim() === '' || f.due.trim() === 'none') out.due_date = null;
    else {
      const d = resolveDate(f.due, ctx.today());
      if (!d)
        throw badRequest(
          isBeforeFirstDay(f.due)
            ? `"${echoed(f.due)}" is before ${FIRST_DAY}, the first day the desk keeps.`
            : isOffsetOutOfRange(f.due)
              ? `"${echoed(f.due)}" lands outside the days the desk keeps, ${FIRST_DAY} to ${LAST_DAY}.`
              : `"${echoed(f.due)}" is not a date; use YYYY-MM-DD, today, +14d or -3d.`,
          { field: 'due' },
        );
      out.due_date = d;
    }
  });
  await field(() => {
    if (f.priority !== undefined) out.priority = wholeNumber(f.priority, 'priority', 1, 100);
  });
  await field(() => {
    if (f.class === undefined) return;
    const c = f.class?.trim() || null;
    if (c !== null && c !== 'none' && !isPermissionClass(c))
      throw badRequest(
        `"${echoed(c)}" is not a permission class; the classes are ${PERMISSION_CLASSES.join(', ')} (or none).`,
        {
          field: 'class',
        },
      );
    out.class = c === 'none' ? null : c;
  });
  if (f.needs_person !== undefined) out.needs_person = f.needs_person ? 1 : 0;
  await field(() => {
    if (f.chase_after_days !== undefined)
      out.chase_after_days = wholeNumber(f.chase_after_days, 'chase_after_days', 1, 365);
  });
  await field(() => {
    // The business file's range for the same field.
    if (f.max_chases !== undefined) out.max_chases = wholeNumber(f.max_chases, 'max_chases', 0, 100);
  });
  await field(() => {
    if (f.contact_name !== undefined) out.contact_name = withinLimit('contact_name', optionalText(f.contact_name));
  });
  await field(() => {
    if (f.contact_email === undefined) return;
    const e = optionalText(f.contact_email);
    if (e !== null && !isEmailAddress(e)) throw badRequest(`${notAnAddress(e)}.`, { field: 'contact_email' });
    out.contact_email = withinLimit('contact_email', e);
  });
  await field(() => {
    if (f.waiting_on !== undefined) out.waiting_on = withinLimit('waiting_on', optionalText(f.waiting_on));
  });
  // Null, or text left empty, takes the row off its arrangement or unit.
  const given = (v: number | string | null) => (v === null || String(v).trim() === '' ? null : v);
  await field(async () => {
    if (f.arrangement_id === undefined) return;
    const a = given(f.arrangement_id);
    out.arrangement_id = a === null ? null : await rowOnDesk(ctx, 'arrangements', a, 'arrangement');
  });
  await field(async () => {
    if (f.unit_id === undefined) return;
    const u = given(f.unit_id);
    out.unit_id = u === null ? null : await rowOnDesk(ctx, 'units', u, 'unit');
  });
  const [first] = faults;
  if (first && faults.length === 1) throw badRequest(first.message, { field: first.field });
  if (first)
    throw badRequest(`${faults.length} fields need fixing; nothing was changed.`, {
      field: first.field,
      errors: faults.map((x) => x.message),
      fields: faults,
    });
  return out;
}
