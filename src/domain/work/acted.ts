import type { WorkRow } from '../../store/schema.ts';

// An owner's action on a row whose outcome already holds (close on a closed row, a row given to
// whoever already has it, reopen on a row in the queue, an edit to what the row already says)
// finds what it asks for: it changes nothing, writes nothing to the row's history or the desk's
// log, and is not a refusal, as complete on a done row answers 200 (P-cli-28). What cannot be
// met (close or complete on a row finished the other way) is still refused.

/** The row as an owner's action left it. */
export interface Acted {
  row: WorkRow;
  /** What already held, said after the row's name ("is already closed"); null when the row was changed. */
  unchanged: string | null;
}

/** The plain sentence for an action that changed nothing: "#3 is already closed; nothing was changed." */
export function nothingChanged(name: string, unchanged: string): string {
  return `${name} ${unchanged}; nothing was changed.`;
}
