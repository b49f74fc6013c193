// A desk's slug names it in URLs, commands and business files: one rule for all of them.

import { echoed } from '../text.ts';

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function isSlug(s: string): boolean {
  return SLUG.test(s);
}

/** Why a slug is refused, ending without a full stop so each door can frame it. */
export const slugFault = (s: string) =>
  /^[a-z0-9][a-z0-9-]*$/.test(s)
    ? `"${echoed(s)}" is ${s.length} characters long; a slug is at most 63`
    : `"${echoed(s)}" must be lower-case letters, digits and dashes`;
