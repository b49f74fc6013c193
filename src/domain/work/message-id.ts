import { randomBytes } from 'node:crypto';

// The Message-ID every message the desk sends goes out with. Its random part (128 bits) makes
// it unguessable, so a reply that names it was written to that message; the part after the @
// is the desk's own sending domain, as RFC 5322 asks, or the desk's slug under `.invalid` when
// the mailbox has no address yet.

export function newMessageId(from: string | null | undefined, slug: string): string {
  const at = (from ?? '').lastIndexOf('@');
  const domain = at >= 0 ? (from ?? '').slice(at + 1).replace(/[>\s]/g, '') : '';
  const right = /^[A-Za-z0-9.-]+$/.test(domain) ? domain.toLowerCase() : `${slug}.desk.invalid`;
  return `<${randomBytes(16).toString('base64url')}.desk@${right}>`;
}

/** Whether a Message-ID has the form `newMessageId` gives: a message some desk sent. */
export function isDeskMessageId(id: string): boolean {
  return /^<[A-Za-z0-9_-]{22}\.desk@[^<>\s]+>$/.test(id);
}

/**
 * An id as the desk stored it: a domain is the same in any case, and a mail system on the way
 * may write ours in capitals, so the domain of an id of the desk's form is read in lower case,
 * as `newMessageId` writes it. Any other id is left as it came.
 */
export function storedFormOf(id: string): string {
  return isDeskMessageId(id) ? id.replace(/@[^@>]+>$/, (domain) => domain.toLowerCase()) : id;
}
