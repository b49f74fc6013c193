// What the desk takes for an email address, wherever one comes in (a row's contact, a business
// file, a mailbox's From): one @, something either side, no spaces or angle brackets. Loose on
// purpose: the mail server is the judge of whether it delivers.

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

export function isEmailAddress(s: string): boolean {
  return ADDRESS.test(s);
}

/** Two addresses naming one mailbox: the same letters in any case, spaces around ignored. */
export function sameAddress(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();
}
