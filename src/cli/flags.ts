import { DeskError } from '../domain/errors.ts';

// The domain names a row's fields as the API does (`chase_after_days`); at the terminal the
// owner typed flags (`--chase-after`), so that is what an error names.

const FLAG_OF: Record<string, string> = {
  chase_after_days: '--chase-after',
  contact_name: '--contact-name',
  contact_email: '--contact-email',
  waiting_on: '--waiting-on',
  arrangement_id: '--arrangement',
  unit_id: '--unit',
  needs_person: '--needs-person',
  due_date: '--due',
  days: '--days',
  title: '--title',
  detail: '--detail',
  kind: '--kind',
  priority: '--priority',
  class: '--class',
  note: '--note',
};

// The domain's field messages open with the field's name: `chase_after_days must be ...`.
const OPENING = new RegExp(`^(${Object.keys(FLAG_OF).join('|')})\\b`);

export function inFlagWords(message: string): string {
  return message.replace(OPENING, (field: string) => FLAG_OF[field] ?? field);
}

/** Runs a command's domain call, re-wording a refused field as the flag the owner typed. */
export async function asFlags<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DeskError && err.code === 'bad_request')
      throw new DeskError(err.code, inFlagWords(err.message), err.details);
    throw err;
  }
}
