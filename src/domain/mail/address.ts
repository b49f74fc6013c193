import { echoed } from '../text.ts';

// What the desk takes for an email address, wherever one comes in (a row's contact, a business
// file, a mailbox's From): one @, something either side, no spaces or angle brackets. Loose on
// purpose: the mail server is the judge of whether it delivers. None of the characters mail's
// address syntax gives a meaning either: the mailer reads "ann,bob@x.test" as two addresses,
// "a(b)c@x.test" as c@x.test with a comment, "ann:bob@x.test" as a group, and sends to what it
// read, while the desk would record it as sent to the whole text. Nor control characters.

const ADDRESS = /^[^\s@<>,;()":[\]\\\p{Cc}]+@[^\s@<>,;()":[\]\\\p{Cc}]+$/u;
/** What earlier versions took, commas and semicolons included, and a desk may still hold. */
const STORED = /^[^\s@<>]+@[^\s@<>]+$/;

export function isEmailAddress(s: string): boolean {
  return ADDRESS.test(s);
}

/**
 * Whether a business file's address is one the desk may hold: as a desk exported it, an address
 * from before commas were refused reads back (its send then says it names more than one).
 */
export function isStoredAddress(s: string): boolean {
  return STORED.test(s);
}

/** Whether an address names more than one mailbox, which the desk will not send to. */
export function namesMoreThanOne(s: string): boolean {
  return /[,;]/.test(s);
}

/** Why text is refused as an address, without a stop, naming a list or a mark where one was given. */
export function notAnAddress(s: string): string {
  const why = namesMoreThanOne(s)
    ? '; give one address, with no commas or semicolons'
    : // Said only of text otherwise written as one address: a space or a control character is the fault.
      !/[\s\p{Cc}]/u.test(s) && /[()":[\]\\]/.test(s)
      ? '; give a plain address, with none of ( ) " : [ ] \\ in it'
      : '';
  return `"${echoed(s)}" is not an email address${why}`;
}

/**
 * An address as the desk compares it (P-pass-6): spaces around dropped, A to Z in small
 * letters, every other letter as written. Both databases fold just these in a query
 * (`foldedAddress`), so a rule reads the same in code and in SQL.
 */
export function addressKey(address: string): string {
  return address.trim().replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Two addresses naming one mailbox: the same address in either case of A to Z, spaces around ignored. */
export function sameAddress(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && addressKey(a) === addressKey(b);
}
