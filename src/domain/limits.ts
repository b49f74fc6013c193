import { badRequest } from './errors.ts';
import { closeDirections, longerThan } from './text.ts';

// How long the owner's text on a row, an arrangement, a unit or a watch may be, wherever it
// comes in (a form, a command, a business file). Long enough for anything the field is for; short enough that a whole
// document pasted into a one-line field is refused rather than shown everywhere the row is.

export const TEXT_MAX = {
  title: 500,
  kind: 100,
  detail: 20_000,
  contact_name: 200,
  contact_email: 254,
  /** A contact's name, or the address a message went to when the row names nobody. */
  waiting_on: 254,
  assignee: 200,
} as const;

const WORDS: Record<keyof typeof TEXT_MAX, string> = {
  title: 'A title',
  kind: 'A kind',
  detail: 'The detail',
  contact_name: "A contact's name",
  contact_email: 'An email address',
  waiting_on: 'Who the row waits on',
  assignee: "A person's name",
};

/**
 * A prepared message's text, as the owner may edit it before approving and as a business file
 * may give one still to go: what the desk would send it must also let the owner send unchanged.
 */
export const MESSAGE_MAX = { subject: 300, body: 20_000 } as const;

/**
 * The text as it is kept (its directions closed), or a refusal naming the field when that is
 * longer than the field allows: what is kept must be taken again (an export read back).
 */
export function withinLimit<T extends string | null>(field: keyof typeof TEXT_MAX, text: T): T {
  if (text === null) return text;
  const kept = closeDirections(text);
  if (longerThan(kept, TEXT_MAX[field]))
    throw badRequest(`${WORDS[field]} is at most ${TEXT_MAX[field].toLocaleString('en')} characters.`, { field });
  return kept as T;
}

/**
 * A row's detail with a note as its last paragraph (`desk work close --note`, complete's note),
 * held to the detail's limit: notes added one by one may not make a detail no form or business
 * file would take.
 */
export function detailWithNote(detail: string | null, note: string | null): string | null {
  if (!note) return detail;
  const joined = joinNote(detail, note);
  if (longerThan(joined, TEXT_MAX.detail))
    throw badRequest(
      `The note would make the row's detail ${Array.from(joined).length.toLocaleString('en')} characters, over the ${TEXT_MAX.detail.toLocaleString('en')} it holds; shorten the note, or the row's detail first.`,
      { field: 'note' },
    );
  return joined;
}

/** Whether the row's detail has room for the note as its last paragraph. */
export function noteFits(detail: string | null, note: string | null): boolean {
  return !note || !longerThan(joinNote(detail, note), TEXT_MAX.detail);
}

/** Whether the detail ends with the note as `detailWithNote` adds it: the same note given again. */
export function endsWithNote(detail: string | null, note: string): boolean {
  const kept = closeDirections(note);
  return detail === kept || (detail ?? '').endsWith(`\n\n${kept}`);
}

function joinNote(detail: string | null, note: string): string {
  // The note's directions are closed before it is counted, as any text kept is (withinLimit).
  const kept = closeDirections(note);
  return detail && detail.trim() !== '' ? `${detail}\n\n${kept}` : kept;
}

/**
 * The same for what names an arrangement, a unit or a watch: its name or label reads like a
 * row's contact name, its kind or type like a row's kind. A business file refuses longer text
 * on its line, and the screen beside the field, because both are read by the file's rules.
 */
export const SETUP_TEXT_MAX = {
  name: 200,
  counterparty: 200,
  label: 200,
  kind: 100,
  type: 100,
  subject_type: 100,
  field: 100,
  /** A connection's service ("smtp", "gov-portal") and what it is for ("mail", "filing"). */
  provider: 200,
  category: 100,
  /** A server's name (DNS allows 253) and a user name a server or portal signs in with. */
  host: 253,
  user: 254,
} as const;
