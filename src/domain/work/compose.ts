import { MESSAGE_MAX } from '../limits.ts';
import { clipped, oneLine } from '../text.ts';
// The desk writes a message from a row's facts and nothing else: the title, the due date,
// who it goes to, since when the row has been waiting, the arrangement or unit it belongs to,
// and the newest notes on that arrangement. One template per permission class, plus a
// neutral one for rows in no class (or `sign`, which the desk only prepares).

export interface DraftFacts {
  title: string;
  /** The row's permission class, or null. */
  permission: string | null;
  due_date: string | null;
  /** The desk's own date. */
  today: string;
  /** Who the message goes to: a name when known. */
  contact_name: string | null;
  contact_email: string;
  /** Who the row is out with, and since which date on the desk's calendar, when it is waiting. */
  waiting_on: string | null;
  waiting_since: string | null;
  /** The arrangement's name, else the unit's name, else null. */
  about: string | null;
  /** Newest first; only the first few are used. */
  notes: string[];
  /** Who signs the message: the desk's (business's) name. */
  signature: string;
  /** The subject of the last message sent on the row, when a follow-up is threaded on it. */
  replying_to?: string | null;
  /** The subject of a reply waiting to be read on the row: the message answers it (P-mail-3). */
  answering?: string | null;
  /** Who wrote that reply, when it was somebody other than the contact: named, they are thanked. */
  answered_by?: string | null;
}

export interface Draft {
  channel: 'email';
  to: string;
  subject: string;
  body: string;
}

export type TemplateName = 'reach_out' | 'chase' | 'file' | 'commit' | 'money' | 'neutral';

/** How many of an arrangement's newest notes a prepared message quotes (P-writes-5). */
export const MAX_NOTES = 3;
const NOTE_CHARS = 300;

// Words a task title opens with that read as lower case mid-sentence; anything else (a name,
// VAT, a place) keeps its capital.
const TASK_VERBS = new Set(
  'apply arrange ask book buy call cancel chase check collect confirm email file fix get inspect order pay prepare register remind renew reply request replace return review schedule send service sign submit test update'.split(
    ' ',
  ),
);

function asTask(title: string): string {
  const bare = title.replace(/[.!]+$/, '');
  const first = bare.split(/\s/)[0] ?? '';
  const task =
    TASK_VERBS.has(first.toLowerCase()) && /^[A-Z][a-z]*$/.test(first)
      ? `${first.toLowerCase()}${bare.slice(first.length)}`
      : bare;
  // It ends the sentence: a title asked as a question, or trailing off, keeps its own mark.
  return /[?…]$/.test(task) ? task : `${task}.`;
}

// A draft may go out days after it was written (approved later, or sent by the desk on its
// own), so it states dates, never a count of days from today, which would no longer hold.
function dueSentence(f: DraftFacts): string | null {
  if (!f.due_date) return null;
  return f.due_date < f.today ? `It was due on ${f.due_date}.` : `It is due on ${f.due_date}.`;
}

/** The date the row went out to somebody, when it was before today. */
function waitingSince(f: DraftFacts): string | null {
  if (!f.waiting_on || !f.waiting_since || f.waiting_since >= f.today) return null;
  return f.waiting_since;
}

function notesBlock(f: DraftFacts): string | null {
  const notes = f.notes
    .map((n) => n.trim())
    .filter((n) => n !== '')
    .slice(0, MAX_NOTES)
    .map((n) => `- ${clipped(n, NOTE_CHARS)}`);
  return notes.length ? `For reference, our latest notes:\n${notes.join('\n')}` : null;
}

/** Which template a row gets: a row already out with somebody is chased, whatever its class. */
export function templateFor(permission: string | null, waitingOn: string | null): TemplateName {
  if (waitingOn && permission !== 'money') return 'chase';
  switch (permission) {
    case 'reach_out':
    case 'chase':
    case 'file':
    case 'commit':
    case 'money':
      return permission;
    default:
      return 'neutral';
  }
}

/** The message's first paragraph, by the contact's name when the row has one. */
export function greetingFor(contactName: string | null | undefined): string {
  const name = contactName?.trim();
  return name ? `Hello ${name},` : 'Hello,';
}

/**
 * The body greeting `to` where it greeted `from` as the desk wrote it; null when its first
 * paragraph is not that greeting (the owner wrote another, or there is nothing to change).
 */
export function regreet(body: string, from: string | null | undefined, to: string | null | undefined): string | null {
  const old = greetingFor(from);
  const next = greetingFor(to);
  if (old === next || !(body === old || body.startsWith(`${old}\n\n`))) return null;
  return next + body.slice(old.length);
}

export function composeDraft(f: DraftFacts): Draft {
  const greeting = greetingFor(f.contact_name);
  const about = f.about ? ` for ${f.about}` : '';
  const title = f.title.trim();
  const due = dueSentence(f);
  const template = templateFor(f.permission, f.waiting_on);
  let subject: string;
  let opening: string;
  let ask: string;

  // A title is written as a task ("Book the fire-safety inspection"): the message names it
  // after a colon, as a person would, rather than pasting it mid-sentence.
  const task = asTask(title);
  switch (template) {
    case 'reach_out':
      subject = f.about ? `${title} (${f.about})` : title;
      opening = `I am getting in touch about the following${about}: ${task}`;
      ask = 'Could you let me know how you would like to take this forward?';
      break;
    case 'chase': {
      const since = waitingSince(f);
      // A follow-up threaded on the desk's last message keeps its subject, as a mail client would.
      subject = f.replying_to?.trim()
        ? `Re: ${f.replying_to.trim().replace(/^(re:\s*)+/i, '')}`
        : `Following up: ${title}`;
      opening = since
        ? `I am following up on this${about}: ${task} We have been waiting on an answer since ${since}.`
        : `I am following up on this${about}: ${task}`;
      ask = 'Could you let me know where this stands?';
      break;
    }
    case 'file':
      subject = `Filing: ${title}`;
      opening = `Please find our filing${about}, for the following: ${task}`;
      ask = 'Could you confirm you have received it?';
      break;
    case 'commit':
      subject = `Confirming: ${title}`;
      opening = `I am writing to confirm the following${about}: ${task}`;
      ask = 'Could you confirm this works on your side?';
      break;
    case 'money':
      subject = `Payment question: ${title}`;
      opening = `I have a question about a payment${about}, for the following: ${task}`;
      ask = 'Could you confirm the amount owed and when it should be paid?';
      break;
    default:
      subject = title;
      opening = `I am writing about the following${about}: ${task}`;
      ask = 'Could you let me know what you need from us?';
  }

  // An answer to a reply is a person's to finish: the desk thanks them, keeps their subject, and
  // asks nothing the reply may already have answered.
  const answering = f.answering?.trim();
  if (answering) {
    subject = `Re: ${answering.replace(/^((re|aw|sv)(\[\d+\])?\s*:\s*)+/i, '')}`;
    // Somebody other than the contact may have answered (a colleague, from another address):
    // the contact is then not thanked for a reply they did not write.
    const from = f.answered_by?.trim();
    opening = `Thank you for ${from ? `the reply from ${from}` : 'your reply'} about the following${about}: ${task}`;
    ask = '';
  }

  const paragraphs = [
    greeting,
    [opening, due].filter(Boolean).join(' '),
    notesBlock(f),
    ask,
    `${answering ? 'Kind regards' : 'Thank you'},\n${f.signature}`,
  ].filter((p): p is string => !!p);
  // A subject is one header line: a line break or a control character in a title or a reply's
  // subject would be folded away on the way out, so what is recorded as sent is what goes. It
  // is no longer than the owner may approve unchanged, or a business file take back.
  return {
    channel: 'email',
    to: f.contact_email,
    subject: clipped(oneLine(subject), MESSAGE_MAX.subject),
    body: paragraphs.join('\n\n'),
  };
}
