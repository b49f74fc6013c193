// A desk's slug names it in URLs, commands and business files: one rule for all of them.

import { echoed } from '../text.ts';

const SLUG_CHARS = /^[a-z0-9][a-z0-9-]*$/;
const SLUG_MAX = 63;

export function isSlug(s: string): boolean {
  return s.length <= SLUG_MAX && SLUG_CHARS.test(s);
}

/** Why a slug is refused, ending without a full stop so each door can frame it. */
export const slugFault = (s: string) =>
  SLUG_CHARS.test(s)
    ? `"${echoed(s)}" is ${s.length} characters long; a slug is at most ${SLUG_MAX}`
    : `"${echoed(s)}" must be lower-case letters, digits and dashes, starting with a letter or a digit`;
