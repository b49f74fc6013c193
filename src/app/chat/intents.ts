import { plural } from '../../domain/text.ts';
import { words } from './words.ts';
import { type AskedWindow, writtenDate } from './written-dates.ts';

// What the built-in answerer understands: the questions an owner actually asks, matched by
// their words. The first pattern that matches wins, so the more specific ones come first.

export type Intent =
  | { type: 'add_block'; subject: string }
  | { type: 'no_block'; subject: string }
  | { type: 'change'; money: boolean; grant: boolean }
  | { type: 'row'; id: number }
  | { type: 'overdue' }
  | ({ type: 'needs_me' } & AskedWindow)
  | { type: 'waiting' }
  | ({ type: 'due'; named: string[] } & AskedWindow)
  | { type: 'owe' }
  | { type: 'renewal'; words: string[] }
  | { type: 'mailbox' }
  | { type: 'permissions' }
  | { type: 'help' }
  | { type: 'unknown' };

const ADD_BLOCK =
  /\b(?:add|create|make|put|start|build|want|need|like)\b(?:\s+(?:me|us))?\s+(?:(?:a|an|another|one|the)\s+)?(?:new\s+)?(?:block|section|panel)\b[\s:,-]*(?:(?:for|about|on|of|with|showing|listing|tracking|called|named|to\s+(?:show|track|list|hold))\b\s*)?(.*)$/i;

/**
 * Words before "add a block" that make it not a request: a refusal ("don't add..."), a question
 * about one ("did you add...", "why did you add...") or about how ("how do I add..."). Each
 * would otherwise save a block the owner did not ask for.
 */
const NOT_ASKING =
  /\b(?:not|never|no\s+need|don'?t|doesn'?t|didn'?t|won'?t|wouldn'?t|shouldn'?t|did|does|why|how|when|where|who|whether|was|were|has|had)\b/i;

/** "I want the block for invoices removed": asking for the opposite of a new block. */
const TAKEN_AWAY = /\s+(?:removed|deleted|gone|hidden|taken\s+(?:off|away|down))$/i;

/**
 * An order rather than a question: "snooze the VAT return a week", "close every row", "can you
 * pay the flour invoice?". The chat changes nothing but blocks, so these get an answer that says
 * nothing was done, instead of being read as a question about the row or date they name.
 */
const ORDER =
  /^(?:(?:please|ok(?:ay)?|now|just)[\s,]+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|i(?:\s+(?:want|need|would\s+like)|'d\s+like)\s+(?:you\s+)?to\s+|go\s+ahead\s+and\s+)?(?:snooze|postpone|defer|delay|push|move|reschedule|close|complete|finish|mark|tick|delete|remove|cancel|archive|reopen|pay|send|approve|draft|write|run|file|submit|grant|revoke|allow|assign|reassign|add|create|set|change|update|edit|rename|renew|sign|chase|nudge|ignore|forget|transfer|refund|book|order|buy)\b/;

/**
 * An order, not a question put shortly ("update on the lease?", "run out of anything?"): a
 * question mark makes it a question, unless it asks the desk to do the thing ("can you ...?").
 */
function isOrder(q: string): boolean {
  if (!ORDER.test(q)) return false;
  return !q.endsWith('?') || /^(?:(?:please|ok(?:ay)?|now|just)[\s,]+)*(?:can|could|would|will)\s+you\b/.test(q);
}

/** Words that say nothing about which arrangement, domain or row is meant. */
const FILLER = new Set(
  'when whens what whats which does do did will is are the a an our my we us of for on in to at by it its next date dates day renew renews renewed renewal renewals due come comes up expire expires expiry end ends ending run runs out how long until till please tell me about and or with have has'.split(
    ' ',
  ),
);

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * The window a question names. A weekday ("by Friday", "next Friday") is the first such day on
 * or after today, and a date without a year ("by 3 April") the next such date, which only the
 * answer knows: they come back as `weekday` (0 is Sunday) and `date`.
 */
export function needsWindow(q: string): AskedWindow {
  const date = writtenDate(q);
  if (date) {
    const window = date.kind === 'date' ? `${date.before ? 'before' : 'by'} ${date.label}` : '';
    return { days: null, window, date };
  }
  const n = /\b(?:next|coming|within|in)\s+(\d{1,3})\s+(days?|weeks?)\b/.exec(q);
  if (n) {
    const days = Number(n[1]) * (n[2]!.startsWith('week') ? 7 : 1);
    return { days, window: `in the next ${plural(days, 'day')}` };
  }
  if (/\btoday\b/.test(q)) return { days: 0, window: 'today' };
  if (/\btomorrow\b/.test(q)) return { days: 1, window: 'by tomorrow' };
  const day = new RegExp(`\\b(${WEEKDAYS.join('|')})\\b`).exec(q);
  if (day)
    return {
      days: null,
      window: `by ${day[1]!.charAt(0).toUpperCase()}${day[1]!.slice(1)}`,
      weekday: WEEKDAYS.indexOf(day[1]!),
    };
  if (/\b(?:this|next|coming)\s+fortnight\b|\b(?:two|2)\s+weeks\b/.test(q))
    return { days: 14, window: 'in the next 14 days' };
  if (/\bweek\b/.test(q)) return { days: 7, window: 'in the next 7 days' };
  if (/\bmonth\b/.test(q)) return { days: 30, window: 'in the next 30 days' };
  return { days: null, window: '' };
}

/**
 * "When is the VAT return due?": a question of when, with no window, is about the thing it
 * names. "What is due?" names nothing and "what is due this week?" asks for a window instead.
 */
function asksWhen(q: string, window: AskedWindow): boolean {
  return (
    window.days === null &&
    window.weekday === undefined &&
    window.date === undefined &&
    /\bwhen\b|\b(?:what|which)\s+(?:date|day)\b|\bhow\s+long\s+(?:until|till)\b/.test(q)
  );
}

/** Words that point at something said before rather than name it. */
const STANDS_IN = /^(?:them|it|these|those|this|that|one|ones|something|anything|stuff|things?)$/i;

export function matchIntent(question: string): Intent {
  const block = ADD_BLOCK.exec(question);
  if (block) {
    const subject = (block[1] ?? '')
      .replace(/\s+(?:to|on|in)\s+(?:the|my|our)\s+(?:desk|screen|page)\b.*$/i, '')
      .replace(/\s*,?\s*please\s*$/i, '')
      .replace(/[\s.!?,;:]+$/g, '')
      .trim();
    // Only the clause the request stands in says whether it is one: "When you get a chance, add
    // a block" asks for it, "why did you add a block" does not.
    const before = (
      question
        .slice(0, block.index)
        .split(/[.,;:!?()\u2013\u2014]|\s-\s/)
        .at(-1) ?? ''
    ).replace(/[’]/g, "'");
    if (NOT_ASKING.test(before) || TAKEN_AWAY.test(subject))
      return { type: 'no_block', subject: subject.replace(TAKEN_AWAY, '') };
    // "add a block for them" names nothing the block could collect: it is asked what for.
    return { type: 'add_block', subject: STANDS_IN.test(subject) ? '' : subject };
  }
  const q = question.toLowerCase().replace(/[’]/g, "'");
  if (isOrder(q.trim())) {
    return {
      type: 'change',
      money: /\b(?:pay\w*|paid|money|refund\w*|transfer\w*|buy|sign|signature)\b/.test(q),
      grant: /\b(?:grant\w*|revoke\w*|allow\w*|permi\w*)/.test(q),
    };
  }
  const row =
    /\b(?:row|item|task|obligation|work\s+item|number|no\.?)\s*#?\s*(\d{1,12})\b/.exec(q) ?? /#\s*(\d{1,12})\b/.exec(q);
  if (row) return { type: 'row', id: Number(row[1]) };
  if (/\b(?:overdue|late|past\s+due|behind|missed)\b/.test(q)) return { type: 'overdue' };
  if (
    /\bneeds?\s+(?:me|my|us|a\s+person|someone|somebody)\b|\bfor\s+me\s+to\b|\bmy\s+(?:attention|plate|turn|decision)\b|\bwhat\s+(?:do|should|must)\s+i\s+(?:do|handle|look\s+at)\b|\b(?:do|should|must)\s+i\s+(?:need\s+to|have\s+to)\s+do\b|\bwaiting\s+(?:on|for)\s+me\b|\bup\s+to\s+me\b/.test(
      q,
    )
  ) {
    return { type: 'needs_me', ...needsWindow(q) };
  }
  if (/\bwait(?:ing)?\b|\bhear(?:d)?\s+back\b|\bchas(?:e|ing)\b|\bout\s+with\b|\bowes?\s+us\b|\bawait/.test(q))
    return { type: 'waiting' };
  // "What is due this week?": by date alone, whoever's the next step is (needs_me narrows to the owner's).
  if (/\bdue\b/.test(q) && !/\b(?:domains?|owe|owing|owed|debt|unpaid)\b/.test(q)) {
    const window = needsWindow(q);
    return { type: 'due', ...window, named: asksWhen(q, window) ? words(q).filter((w) => !FILLER.has(w)) : [] };
  }
  if (
    /\b(?:owe|owing|owed|debt|unpaid|collections?|outstanding)\b/.test(q) ||
    (/\bdomains?\b/.test(q) && !/\b(?:renew\w*|expir\w*)\b/.test(q))
  )
    return { type: 'owe' };
  if (/\b(?:mail\w*|e-?mail\w*|smtp|inbox|outbox)\b/.test(q)) return { type: 'mailbox' };
  if (
    /\bwithout\s+(?:asking|me|permission)\b|\bon\s+(?:its|your|it's)\s+own\b|\bby\s+(?:itself|yourself)\b|\ballowed\b|\bpermi\w*|\bgrant\w*|\bdelegat\w*|\bwhat\s+can\s+(?:the\s+desk|it)\s+do\b/.test(
      q,
    )
  ) {
    return { type: 'permissions' };
  }
  if (/\b(?:renew\w*|expir\w*|lease|contract|ends?|ending|runs?\s+out)\b/.test(q)) {
    return { type: 'renewal', words: words(q).filter((w) => !FILLER.has(w)) };
  }
  if (/^\s*(?:help|hi|hello|hey|what\s+can\s+(?:i\s+ask|you\s+do)|what\s+do\s+you\s+(?:know|answer))\b/.test(q))
    return { type: 'help' };
  return { type: 'unknown' };
}
