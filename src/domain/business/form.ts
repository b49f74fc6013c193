import { badRequest } from '../errors.ts';
import { Entry, FileErrors, type Raw } from './fields.ts';

// A form the owner fills in is read as one entry of a business file, by the file's own
// readers, so a rule about an arrangement, a unit or a watch is written once. A form sends
// text: blank means not given, and whole numbers are read as numbers.

export type FormValues = Record<string, string | undefined>;

/** The typed values as a file entry would hold them. */
export function formEntry(form: FormValues, numbers: readonly string[] = []): Raw {
  const raw: Raw = {};
  for (const [k, v] of Object.entries(form)) {
    const t = v?.trim() ?? '';
    if (t === '') continue;
    raw[k] = numbers.includes(k) && /^-?\d{1,15}$/.test(t) ? Number(t) : t;
  }
  return raw;
}

/**
 * "Days ahead must be between 0 and 3650." or "Days ahead: "x" is not a whole number.": by the
 * form's own label where it has one that is not the file's field name.
 */
function said(field: string, message: string, labels: Readonly<Record<string, string>>): string {
  const words = field.replace(/_/g, ' ');
  const label = labels[field] ?? `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  return /^(is|must) /.test(message) ? `${label} ${message}.` : `${label}: ${message}.`;
}

/**
 * Reads `raw` with a business-file reader; any error is thrown as one bad_request whose
 * `details.fields` says each field's first error in words, for the form to show beside it.
 * `extra` holds errors the caller found itself, by field; `labels`, the form's words for its fields.
 */
export function readFormEntry<T>(
  what: string,
  raw: Raw,
  allowed: readonly string[],
  today: string,
  read: (e: Entry) => T,
  extra: Record<string, string> = {},
  labels: Readonly<Record<string, string>> = {},
): T {
  const errors = new FileErrors();
  const value = read(new Entry(what, raw, errors, today, allowed));
  const fields: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors.byField)) {
    // A unit's own columns are one field on the form.
    const name = field.startsWith('fields.') ? 'fields' : field;
    fields[name] ??= said(name === field ? field : field.slice('fields.'.length), message, labels);
  }
  Object.assign(fields, extra);
  const names = Object.keys(fields);
  if (names.length > 0) throw badRequest(fields[names[0]!]!, { field: names[0], fields });
  return value;
}
