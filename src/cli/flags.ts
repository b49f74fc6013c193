import { DeskError } from '../domain/errors.ts';

// The domain names a row's fields as the API does (`chase_after_days`); at the terminal the
// owner typed flags (`--chase-after`), so that is what an error names.

const FLAG_OF: Record<string, string> = {
  chase_after_days: '--chase-after',
  max_chases: '--max-chases',
  contact_name: '--contact-name',
  contact_email: '--contact-email',
  waiting_on: '--waiting-on',
  arrangement_id: '--arrangement',
  unit_id: '--unit',
  needs_person: '--needs-person',
  due_date: '--due',
  due: '--due',
  days: '--days',
  title: '--title',
  detail: '--detail',
  kind: '--kind',
  priority: '--priority',
  class: '--class',
  note: '--note',
  assignee: '--to',
  hours: '--hours',
  daily_cap: '--daily-cap',
  act_within_days: '--act-within-days',
};

// The domain's field messages open with the field's name (`chase_after_days must be ...`), or,
// listed after a summary, follow it or another field's message (`Nothing was changed.
// daily_cap: ...; hours: ...`).
const OPENING = new RegExp(`(^|\\. |; )(${Object.keys(FLAG_OF).join('|')})\\b`, 'g');

export function inFlagWords(message: string): string {
  return message.replace(OPENING, (_all, before: string, field: string) => `${before}${FLAG_OF[field] ?? field}`);
}

/** A field's message in flag words; one that does not name its field (`"nope" is not a date`) is given it. */
function forField(message: string, field: unknown): string {
  const worded = inFlagWords(message);
  const flag = typeof field === 'string' ? FLAG_OF[field] : undefined;
  return worded !== message || !flag || worded.includes(flag) ? worded : `${flag}: ${worded}`;
}

/** Runs a command's domain call, re-wording a refused field as the flag the owner typed. */
export async function asFlags<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof DeskError) || err.code !== 'bad_request') throw err;
    const d = err.details;
    const fields = Array.isArray(d?.fields) ? (d.fields as Array<{ field: string; message: string }>) : null;
    if (fields) {
      const worded = fields.map((f) => ({ ...f, message: forField(f.message, f.field) }));
      throw new DeskError(err.code, err.message, { ...d, fields: worded, errors: worded.map((f) => f.message) });
    }
    if (Array.isArray(d?.errors))
      throw new DeskError(err.code, inFlagWords(err.message), {
        ...d,
        errors: d.errors.map((e) => inFlagWords(String(e))),
      });
    throw new DeskError(err.code, forField(err.message, d?.field), d);
  }
}
