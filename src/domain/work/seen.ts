import type { ActivityRow } from '../../store/schema.ts';
import { addressKey } from '../mail/address.ts';
import { oneLine, sameAsDrawn } from '../text.ts';

// "Approve and send" approves the message its page showed. One changed after the page was drawn
// (an edit of the row's contact readdressed it or greeted the new name, from the CLI, the API or
// another tab) is not sent to an address or with words the owner never saw: nothing is done,
// and the owner reads it again (P-screen-work-6).

export const CHANGED_SINCE =
  'The prepared message was changed since this page was drawn (where it goes, or what it says), so nothing was sent. Read it again as it is now, then approve it.';

/** What the owner was shown of a prepared message; a part left out was not shown, and is not compared. */
export interface Seen {
  to?: string;
  subject?: string;
  body?: string;
}

/** Whether `message` now differs from what the owner was shown of it. */
export function changedSinceSeen(message: Pick<ActivityRow, 'to_address' | 'subject' | 'body'>, seen: Seen): boolean {
  if (seen.to !== undefined && addressKey(message.to_address ?? '') !== addressKey(seen.to)) return true;
  // The page shows a subject on one line, however it was drafted.
  if (seen.subject !== undefined && oneLine(message.subject ?? '') !== oneLine(seen.subject)) return true;
  return seen.body !== undefined && !sameAsDrawn(message.body, seen.body);
}
