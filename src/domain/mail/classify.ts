import type { ParsedMail } from '../ports.ts';
import { storedFormOf } from '../work/message-id.ts';

// What a message in the mailbox is, read from its headers alone: pure, tested as tables.

/**
 * A sender's Message-ID as the desk keeps it: the first 500 characters. RFC 5322 sets no
 * length, and a longer id would not fit the indexes that find it again (PostgreSQL's hold
 * about 2,700 bytes a row).
 */
export function keptMessageId(id: string): string {
  return id.slice(0, 500);
}

/**
 * A header's value without its comments, which may hold comments of their own (RFC 5322 3.2.2).
 * Only its first line's worth is read, and ten levels of comment, so that a crafted header costs
 * no more than a real one.
 */
function withoutComments(value: string): string {
  let left = value.slice(0, 998);
  for (let level = 0, was = ''; was !== left && level < 10; level++) {
    was = left;
    left = left.replace(/\([^()]*\)/g, ' ');
  }
  return left;
}

/** An answer a mailbox wrote by itself (RFC 3834 and the usual out-of-office forms). */
export function isAutomatic(mail: Pick<ParsedMail, 'headers' | 'subject'>): boolean {
  const h = mail.headers;
  // The field's value is its keyword: RFC 3834 allows comments and parameters around it, as in
  // "no (written by a person)" or "auto-replied; owner-email=...".
  const auto = withoutComments(h['auto-submitted'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (auto && auto !== 'no') return true;
  if (h['x-autoreply'] !== undefined || h['x-autorespond'] !== undefined || h['x-autoresponse'] !== undefined)
    return true;
  // X-Auto-Response-Suppress is not read: it asks the reader's server not to answer by itself,
  // and helpdesks and lists put it on mail a person wrote. Exchange marks its own answers with
  // Auto-Submitted and an "Automatic reply:" subject, both read here.
  const precedence = h.precedence?.trim().toLowerCase();
  if (precedence === 'auto_reply') return true;
  // Only a subject that opens with the words: "Re: Out of office cover for December" is a
  // person answering a message about cover, and must end the wait like any reply. Notes and
  // Domino mark theirs "AUTO: … is out of the office".
  // Outlook writes its own in the reader's language: German, French, Spanish, Dutch, Italian,
  // Portuguese.
  return AUTO_SUBJECT.test(mail.subject);
}

const AUTO_WORDS =
  'out of (?:the )?office(?: auto[- ]?reply)?|automatic reply|auto(?:matic)?[- ]?(?:reply|response)|autoreply|abwesenheitsnotiz|automatische antwort|r[ée]ponse automatique|respuesta autom[áa]tica|automatisch antwoord|risposta automatica|resposta autom[áa]tica';
const AUTO_SUBJECT = new RegExp(`^\\s*(?:${AUTO_WORDS}|auto:)(?:\\b|\\s)`, 'i');
const AUTO_PREFIX = new RegExp(`^\\s*(?:${AUTO_WORDS}|auto)\\s*:\\s*`, 'i');

/**
 * The subject a message answers, when its own says it answers one: a reply's (`Re:`, `AW:`,
 * `SV:`), or an automatic answer's that repeats it after its own words, as Outlook writes
 * "Automatic reply: Quote" with no `Re:` and, when it is not threaded, nothing else to go on.
 */
export function answeredSubject(mail: Pick<ParsedMail, 'headers' | 'subject'>): string | null {
  if (isReplySubject(mail.subject)) return mail.subject;
  if (!isAutomatic(mail)) return null;
  const rest = mail.subject.replace(AUTO_PREFIX, '');
  return rest !== mail.subject && rest.trim() !== '' ? rest : null;
}

export interface Bounce {
  recipient: string | null;
  /** The receiving server's words, e.g. `550 5.1.1 user unknown`. */
  reason: string;
  /** The Message-ID of the message that bounced, when the report names it. */
  messageId: string | null;
}

function field(block: string, name: string): string | null {
  const m = new RegExp(`^${name}:\\s*(.+(?:\\r?\\n[ \\t].+)*)`, 'im').exec(block);
  return m?.[1] ? m[1].replace(/\r?\n[ \t]+/g, ' ').trim() : null;
}

/**
 * The part of a delivery status report (RFC 3464) about a recipient the message failed to reach:
 * a report has a block for each recipient, and one for a message forwarded to two mailboxes may
 * say delivered for one and failed for the other. Null when every recipient's block says it was
 * delayed, relayed or delivered, which is not a bounce. A report that gives no action at all is
 * read as a whole, as a failure.
 */
function failedBlock(status: string): string | null {
  const blocks = status.split(/\r?\n[ \t]*\r?\n/);
  const acted = blocks.filter((b) => field(b, 'Action') !== null);
  if (acted.length === 0) return status;
  return acted.find((b) => field(b, 'Action')!.toLowerCase() === 'failed') ?? null;
}

/**
 * A report a machine wrote about a message (RFC 6522: a delivery report, a read receipt, an abuse
 * or TLS report): never a person's reply, whatever it names. A failure among them is a bounce.
 */
export function isReport(mail: Pick<ParsedMail, 'headers'>): boolean {
  return /^\s*multipart\/report\b/.test(mail.headers['content-type']?.toLowerCase() ?? '');
}

export function bounceOf(mail: Pick<ParsedMail, 'headers' | 'deliveryStatus' | 'returnedHeaders'>): Bounce | null {
  const type = mail.headers['content-type']?.toLowerCase() ?? '';
  // A message sent with international addresses comes back as a global report (RFC 6533).
  if (!/multipart\/report/.test(type) || !/report-type\s*=\s*"?(global-)?delivery-status/.test(type)) return null;
  const status = failedBlock(mail.deliveryStatus ?? '');
  if (status === null) return null;
  const recipient =
    (field(status, 'Final-Recipient') ?? field(status, 'Original-Recipient'))?.replace(/^[^;]*;\s*/, '') ?? null;
  const diagnostic = field(status, 'Diagnostic-Code')?.replace(/^[^;]*;\s*/, '') ?? null;
  const code = field(status, 'Status');
  const reason = diagnostic ?? (code ? `status ${code}` : 'the receiving server gave no reason');
  const returned = mail.returnedHeaders ? field(mail.returnedHeaders, 'Message-ID') : null;
  return { recipient: recipient?.trim() || null, reason: reason.slice(0, 300), messageId: returned?.trim() || null };
}

/** The subject without its `Re:` and `Fwd:` prefixes, spaces squeezed, for comparing. */
export function baseSubject(subject: string): string {
  let s = subject.trim();
  for (;;) {
    const next = withoutTag(s).replace(/^(re|aw|sv|fwd?|fw)(\[\d+\])?\s*:\s*/i, '');
    if (next === s) break;
    s = next;
  }
  return s.replace(/\s+/g, ' ').toLowerCase();
}

/**
 * A tag a mail system puts before a subject ("[EXTERNAL] ", "[CAUTION: External] "), on the way
 * in to the contact or to the desk: "RE: [EXTERNAL] About: Quote" answers "About: Quote". Words
 * only: "[Invoice 42]" is part of what a person wrote, and tells two subjects apart.
 */
function withoutTag(s: string): string {
  return s.replace(/^\[\p{L}[\p{L} .:-]{0,29}\]\s*/u, '');
}

export function isReplySubject(subject: string): boolean {
  return /^(re|aw|sv)(\[\d+\])?\s*:/i.test(withoutTag(subject.trim()));
}

export const MAX_NAMED_IDS = 50;

const idsIn = (v: string | null | undefined) => (v ? (v.match(/<[^<>\s]+>/g) ?? []).map(storedFormOf) : []);

/**
 * The Message-IDs a message names as the ones it answers, most telling first: In-Reply-To, then
 * References newest first, each once, at most 50. A long thread keeps its first reference too:
 * clients that trim References keep the root, which is often the desk's own message.
 */
export function namedIds(mail: Pick<ParsedMail, 'inReplyTo' | 'references'>): string[] {
  const references = mail.references.flatMap(idsIn);
  const ids = [...idsIn(mail.inReplyTo), ...[...references].reverse()].filter((v, i, all) => all.indexOf(v) === i);
  if (ids.length <= MAX_NAMED_IDS) return ids;
  const root = references[0];
  const kept = ids.slice(0, MAX_NAMED_IDS - 1);
  return root && !kept.includes(root) ? [...kept, root] : ids.slice(0, MAX_NAMED_IDS);
}
