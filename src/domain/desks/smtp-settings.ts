import { isEmailAddress } from '../mail/address.ts';
import { SETUP_TEXT_MAX } from '../limits.ts';
import { CONTROL_CHARACTER, echoed, echoedJson, longerThan } from '../text.ts';

// The rules of a mailbox's sending settings, however they come in: the screen's mailbox form
// or a business file. The faults are keyed by the setting (and the form field) they are about.

export const HOST_TOO_LONG = `A server name is at most ${SETUP_TEXT_MAX.host} characters.`;

/**
 * What is wrong with a server's name as given (trimmed, not empty), or null. A port or a scheme
 * written into it would pass here and fail only when the desk first used it ("no server named
 * smtp.example.com:587"), so each is said with where it goes.
 */
export function serverNameFault(host: string, portExample: number): string | null {
  if (/\s/.test(host)) return `"${echoed(host)}" is not a server name: it has a space in it.`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host))
    return `"${echoed(host)}" is not a server name: give the name alone, such as ${host.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/:]/)[0] || 'smtp.example.com'}.`;
  // One colon, then a number: a port (an IPv6 address has several colons, or brackets).
  const withPort = /^([^:[\]]+):(\d*)$/.exec(host);
  if (withPort)
    return `"${echoed(host)}" is not a server name: give the name alone (${echoed(withPort[1]!)}), and the port apart (${withPort[2] || portExample}).`;
  if (longerThan(host, SETUP_TEXT_MAX.host)) return HOST_TOO_LONG;
  return null;
}
export const USER_TOO_LONG = `A user name is at most ${SETUP_TEXT_MAX.user} characters.`;

const empty = (v: unknown) => v === undefined || v === null || v === '';

/** "Shop <shop@example.test>" or "shop@example.test": the address inside, or null. */
export function addressOf(from: string): string | null {
  // A line break would end the From header and begin another of the writer's choosing.
  if (CONTROL_CHARACTER.test(from)) return null;
  const m = /<([^<>]*)>\s*$/.exec(from);
  const address = (m ? m[1]! : from).trim();
  return isEmailAddress(address) ? address : null;
}

/**
 * A sender as the mailer writes it: its name (quotes around it taken off) and its address, or
 * null. Handed over as the two parts, the mailer writes the name quoted as it needs and never
 * reads an address of its own out of it.
 */
export function senderParts(from: string): { name: string; address: string } | null {
  const address = addressOf(from);
  if (address === null) return null;
  const m = /<[^<>]*>\s*$/.exec(from);
  let name = m ? from.slice(0, m.index).trim() : '';
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(name);
  if (quoted) name = quoted[1]!.replace(/\\(.)/g, '$1');
  return { name, address };
}

const given = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Who a mailbox's messages come from: its sender setting, or else its user, as the mailer sends them. */
export function senderOf(c: Record<string, unknown>): string | null {
  return given(c.from) ?? given(c.user);
}

/**
 * What is wrong with a mailbox's server, port, user, sender and security, by setting. The form
 * asks for every one; a business file may leave out the port (587, as the mailer takes it) and
 * the sender (the user), and what it gives must be right.
 */
export function smtpFaults(c: Record<string, unknown>, opts: { mayLeaveOut?: boolean } = {}): Record<string, string> {
  const errors: Record<string, string> = {};
  const host = typeof c.host === 'string' ? c.host.trim() : '';
  const hostFault = host ? serverNameFault(host, 587) : 'The mail server is required, such as smtp.example.com.';
  if (hostFault) errors.host = hostFault;
  if (typeof c.user === 'string' && longerThan(c.user.trim(), SETUP_TEXT_MAX.user)) errors.user = USER_TOO_LONG;
  const port = c.port;
  if (opts.mayLeaveOut && empty(port)) {
    // Left out: the mailer's own default.
  } else if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    errors.port = `${empty(port) ? 'The port is required' : `${echoedJson(port)} is not a port`}: a whole number from 1 to 65535, such as 587.`;
  const from = typeof c.from === 'string' ? c.from.trim() : '';
  const user = typeof c.user === 'string' ? c.user.trim() : '';
  if (from && !addressOf(from))
    errors.from = `"${echoed(from)}" is not an email address, such as Shop <shop@example.com>.`;
  else if (!from && !addressOf(user) && !opts.mayLeaveOut)
    errors.from = 'Give the address messages come from, such as Shop <shop@example.com>.';

  // Stored as the form stores them; text such as "yes" would be read as no, unsaid.
  for (const flag of ['secure', 'starttls'] as const)
    if (c[flag] !== undefined && c[flag] !== null && typeof c[flag] !== 'boolean')
      errors[flag] = `${echoedJson(c[flag])} is not true or false.`;
  return errors;
}
