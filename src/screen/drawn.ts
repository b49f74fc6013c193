import { sameAsDrawn } from '../domain/text.ts';

// A form for something stored carries the values it was drawn with (`drawn_<field>`), so that
// saving it changes only what the owner changed: a field another writer changed after the page
// was drawn (another tab, the CLI, the API) keeps that change, where saving the whole form wrote
// the page's old values back over it without a word.

/** The values a form was drawn with, as it sent them back; a page drawn before it carried them sends none. */
export function drawnValues(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>))
    if (k.startsWith('drawn_') && typeof v === 'string') out[k.slice('drawn_'.length)] = v;
  return out;
}

export { sameAsDrawn };

/** Whether the owner changed `field` from the form as drawn; a field drawn with no value sent back is changed. */
export function changedFromDrawn(typed: Record<string, string>, drawn: Record<string, string>, field: string): boolean {
  const d = drawn[field];
  return d === undefined || !sameAsDrawn(typed[field] ?? '', d);
}

/**
 * The form's values to save: what the owner changed, and for the rest, the entry as it is now.
 * Fields `together` are one value (an amount means nothing without the currency the form showed
 * it in): a change to any of them saves all of them as typed.
 */
export function changedOverNow(
  typed: Record<string, string>,
  drawn: Record<string, string>,
  now: Record<string, string>,
  together: readonly (readonly string[])[] = [],
): Record<string, string> {
  const out = { ...typed };
  for (const field of Object.keys(typed)) {
    const value = together.find((fields) => fields.includes(field)) ?? [field];
    if (!value.some((f) => changedFromDrawn(typed, drawn, f)) && now[field] !== undefined) out[field] = now[field];
  }
  return out;
}
