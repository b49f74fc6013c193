import { daysBetween } from '../../domain/dates.ts';
import { listWords, plural } from '../../domain/text.ts';
import { amountWords, decimalOf, minorDigits } from '../../domain/money.ts';

export { listWords, plural };

// How the chat answers word things: rows by title and #id, counts, dates, money.

export function rowName(item: { id: number; title: string }): string {
  return `"${item.title}" (#${item.id})`;
}

/** "today", "tomorrow", "in 40 days", "yesterday", "3 days ago". */
export function relativeDay(date: string, today: string): string {
  const d = daysBetween(today, date);
  if (d === 0) return 'today';
  if (d === 1) return 'tomorrow';
  if (d === -1) return 'yesterday';
  return d > 0 ? `in ${d} days` : `${-d} days ago`;
}

/** "due 2026-11-21 (yesterday)", or "with no due date". */
export function dueWords(due: string | null, today: string): string {
  return due === null ? 'with no due date' : `due ${due} (${relativeDay(due, today)})`;
}

/** Minor units in the currency's own notation: 1500 GBP is £15.00, 1500 JPY is ¥1,500. */
export function money(minor: number, currency: string): string {
  try {
    const digits = minorDigits(currency);
    const f = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    // From its decimal text, which Intl reads exactly: a number past 2^53 / 100 would be rounded.
    return f.format(decimalOf(minor, currency) as Intl.StringNumericLiteral);
  } catch {
    return amountWords(minor, currency);
  }
}

/**
 * Short descriptions, at most `max` of them and then how many more of the `total` there are
 * (the parts may be only the first of them): "a, b and 3 more".
 */
export function someOf(parts: readonly string[], max = 10, total = parts.length): string {
  const shown = parts.slice(0, max);
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more.toLocaleString('en')} more` : listWords(shown);
}

/** Whole sentences, at most `max` of them and then how many more of the `total` there are. */
export function sentences(parts: readonly string[], max = 10, total = parts.length): string {
  const shown = parts.slice(0, max);
  const more = total - shown.length;
  return more > 0 ? `${shown.join(' ')} And ${more.toLocaleString('en')} more.` : shown.join(' ');
}

/** Ends a sentence that may already end in punctuation. */
export function stop(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A permission class as a person says it. */
export const CLASS_WORDS: Record<string, string> = {
  reach_out: 'reach out to people',
  chase: 'chase people who have gone quiet',
  file: 'file forms and returns',
  commit: 'commit to renewals and agreements',
  money: 'pay money',
  sign: 'sign',
};

/** Lower-case words, keeping dots, dashes and @ inside them so that domain names survive. */
export function words(text: string): string[] {
  // Letters of any script, so "Café" is one word and "請求書" is one, not a fragment or none.
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^\p{L}\p{M}\p{N}.@-]+/u)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w !== '');
}

/** The same word, singular or plural: invoice/invoices, tax/taxes, property/properties. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length < b.length ? [a, b] : [b, a];
  return l === `${s}s` || l === `${s}es` || (l.endsWith('ies') && `${l.slice(0, -3)}y` === s);
}

/** Whether any of the question's words is a word of one of the texts (a title, a name, a kind). */
export function mentions(question: readonly string[], ...texts: Array<string | null>): boolean {
  const theirs = texts.flatMap((t) => (t ? words(t.replace(/_/g, ' ')) : []));
  return question.some((q) => theirs.some((t) => sameWord(q, t)));
}
