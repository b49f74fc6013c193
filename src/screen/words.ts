import { EMPTY_NOTE } from '../domain/arrangements/note.ts';
import { EMPTY_QUESTION } from '../domain/chat/ask.ts';
import { DAYS_MESSAGE, SNOOZE_MAX_DAYS, SNOOZE_MIN_DAYS } from '../domain/work/snooze.ts';

// The verbs word a refusal for programs and the command line: by the API's field names ("Say
// something in body."), and with the dates a command takes ("+14d"). The contract fixes those
// words, so they stay. The screen says the same refusal in the words of its own forms; every
// rule stays in its verb, and only the wording is chosen here.

const SAID = new Map<string, string>([
  [EMPTY_NOTE, 'Write something in the note before adding it.'],
  [EMPTY_QUESTION, 'Type a question before asking.'],
  [DAYS_MESSAGE, `Snooze for a whole number of days from ${SNOOZE_MIN_DAYS} to ${SNOOZE_MAX_DAYS}.`],
]);

/** The screen's date pickers; a picker sends YYYY-MM-DD or nothing, never "today" or "+14d". */
const DATE_FIELDS = new Set(['due', 'starts_on', 'ends_on', 'renews_on']);

const REWORDED: Array<[RegExp, string]> = [
  // The screen calls a work item a row, and shows the one it is about.
  [/^Work item \d+ /, 'This row '],
  [/^A work item /, 'A row '],
  // The approve form calls the body of the message "Message".
  [/^The body /, 'The message '],
  // The business file's field name, said in the words of the arrangement form.
  // The form puts its label first ("Ends on: 2027-04-01 is before …").
  [/^((?:[^:]+: )?\S+) is before starts_on (\S+);/, '$1 is before the start, $2;'],
  // A rail's field shows its range and meaning in its hint; the refusal only says what to type.
  [/^.+ must be a whole number from (\d+) to (\d+) \([^)]*\)$/, 'Type a whole number from $1 to $2.'],
];

/** The verbs may leave a reason without its full stop (it follows a field's name there); here it stands alone. */
const ended = (m: string) => (/[.!?]$/.test(m) ? m : `${m}.`);

/** A refusal as the owner reads it on the screen; `field` is the form field it names, if any. */
export function saidToOwner(message: string, field?: string): string {
  const said = SAID.get(message);
  if (said) return said;
  if (field !== undefined && DATE_FIELDS.has(field) && / is not a date\b/.test(message))
    return 'Pick a day from the calendar; where the field takes text, type it as YYYY-MM-DD.';
  for (const [pattern, words] of REWORDED)
    if (pattern.test(message)) return ended(inRows(message.replace(pattern, words)));
  return ended(inRows(message));
}

/** Text from the verbs with their "work item" said as the screen says it: "row". */
export function inRows(text: string): string {
  return text.replace(/\bwork item(s?)\b/g, 'row$1');
}
