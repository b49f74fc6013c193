// Small text helpers every layer words things with.

const IRREGULAR: Record<string, string> = {
  entry: 'entries',
  reply: 'replies',
  activity: 'activities',
  person: 'people',
};

/** The one plural rule for everything the desk says: "1 unit", "2 units", "3 entries", "100,000 work items". */
export function plural(n: number, word: string, many?: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? word : (many ?? IRREGULAR[word] ?? `${word}s`)}`;
}

/** "a", "a and b", "a, b and c". */
export function listWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * A stored JSON column read as an object. Text that is not JSON, or JSON that is not an
 * object (never written by Desk, but possible by hand), reads as {}.
 */
export function storedObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

// A UTF-16 surrogate with no partner: not a character, and each database would store it as
// different replacement text.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** What in a text neither database can keep as given: a NUL character or a lone surrogate. */
export function unstorableIn(s: string): 'nul' | 'surrogate' | null {
  if (s.includes('\u0000')) return 'nul';
  return LONE_SURROGATE.test(s) ? 'surrogate' : null;
}

/**
 * Text from outside (a language model, a mail message, a web page) made storable the same way
 * on both databases: NUL characters dropped, lone surrogates replaced by U+FFFD. Objects and
 * arrays are cleaned all through; anything else is returned as it is.
 */
export function storable<T>(v: T): T {
  if (typeof v === 'string') {
    return closeDirections(unstorableIn(v) ? v.replaceAll('\u0000', '').replace(LONE_SURROGATES, '\uFFFD') : v) as T;
  }
  if (Array.isArray(v)) return v.map(storable) as T;
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [storable(k), storable(x)])) as T;
  }
  return v;
}

/** Text as a sentence: its own stop kept ("How does this one get done?"), else a full stop added. */
export function asSentence(text: string): string {
  const t = text.trimEnd();
  return /[.?!…]["')\]]*$/.test(t) ? t : `${t}.`;
}

/**
 * Whether text is longer than `max` characters, counted as a person counts them: an emoji or
 * any other character outside the BMP is one, not the two UTF-16 units `length` counts.
 */
export function longerThan(text: string, max: number): boolean {
  return text.length > max && Array.from(text).length > max;
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Trimmed and cut at `max` whole characters (never half of a pair), trimmed again after the cut.
 * The cut comes before a character as drawn that it would split (a flag, a family emoji, a
 * letter and its accent), unless that one character is longer than the whole limit.
 */
export function cutAt(text: string, max: number): string {
  const trimmed = text.trim();
  // A direction left open is closed, and the closing marks count in the limit: the text kept is
  // cut shorter to make room for them, so what is stored is never longer than `max`.
  for (let room = max; ; ) {
    const cut = cutRaw(trimmed, room);
    const kept = closeDirections(cut);
    if (kept === cut) return kept;
    const over = Array.from(kept).length - max;
    if (over <= 0 || room === 0) return kept;
    room = Math.max(0, room - over);
  }
}

function cutRaw(trimmed: string, max: number): string {
  const chars = Array.from(trimmed);
  if (chars.length <= max) return trimmed;
  let end = chars.slice(0, max).join('').length;
  const split = GRAPHEMES.segment(trimmed).containing(end);
  if (split && split.index < end && split.index > 0) end = split.index;
  return trimmed.slice(0, end).trimEnd();
}

/** At most `max` whole characters, the last of them "…" where the text was cut. */
export function clipped(text: string, max: number): string {
  return longerThan(text, max) ? `${cutAt(text, max - 1)}…` : text;
}

/**
 * A value someone gave, as a refusal repeats it: as text, and past `max` characters cut at whole
 * characters with "…" after, so a message never hands a huge value back whole.
 */
export function echoed(value: unknown, max = 60): string {
  return writtenOut(cutForEcho(String(value), max));
}

function cutForEcho(text: string, max: number): string {
  // Cut where the limit falls and then closed: an echo shows what was given, not what is kept.
  return text.length <= max || Array.from(text).length <= max
    ? closeDirections(text)
    : `${closeDirections(cutRaw(text.trim(), max))}…`;
}

const WRITTEN: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One character written out as JSON writes it: `\n`, `\r`, `\t`, else `\u001b`. */
export function writtenOutChar(c: string): string {
  return WRITTEN[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Control characters written out (`\r`, `\u001b`), as the command line shows stored text: a
 * refusal that repeats a value ("a@b.test\r\nBcc: …" is not an email address) stays one line,
 * and nothing in it can steer a terminal. A backslash the value holds is shown as it is.
 */
function writtenOut(text: string): string {
  return text.replace(/\p{Cc}/gu, writtenOutChar);
}

/**
 * C0 and C1 control characters and DEL, and the marks that turn text's direction (U+202E shows
 * "txt.exe" as "exe.txt"): what a terminal or a quoted line writes out rather than obeys.
 */
export function steersText(code: number): boolean {
  if (code === 0x061c || code === 0x200e || code === 0x200f) return true;
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/**
 * A line of someone's text as a refusal quotes it to point into it: what steers text written
 * out, so each shown character is one that draws.
 */
export function lineWrittenOut(text: string): string {
  let out = '';
  for (const c of text) out += steersText(c.charCodeAt(0)) ? writtenOutChar(c) : c;
  return out;
}

/**
 * A value as the JSON that names it in a refusal (`"yearly"`, `12.5`, `[1]`), cut as `echoed`
 * cuts: a long string keeps its closing quote, with "…" inside it.
 */
export function echoedJson(value: unknown, max = 60): string {
  if (typeof value === 'string') return JSON.stringify(cutForEcho(value, max));
  // JSON has no word for these and writes them `null`, which a refusal must not say of a number
  // (YAML's `.inf`, or JSON's `1e400`, read as infinity).
  if (typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value) ? 'not a number (.nan)' : value > 0 ? 'infinity' : 'minus infinity';
  return echoed(JSON.stringify(value), max);
}

// The characters that draw nothing (U+200B, U+200D, U+2060, U+FEFF, soft hyphens, direction
// marks, variation selectors, control characters): trim() keeps most of them. Tabs and line
// breaks are control characters too, but they space words apart, so they stay.
// Inside an emoji they draw: a joiner between two pictographs makes one (👨‍👩‍👧, not three
// people), and a variation selector after an emoji chooses how it looks; both stay there.
const UNSEEN =
  /(?![\t\n\v\f\r])(?!(?<=\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F)\u200D(?=\p{Extended_Pictographic}))(?!(?<=\p{Emoji})(?:\uFE0E|\uFE0F))[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/gu;

/** Text as a person reads it: without the characters that draw nothing, its spacing kept. */
export function seenText(s: string): string {
  return s.replace(UNSEEN, '');
}

/**
 * Text holding nothing a person can see, so a required field given it was left empty: besides
 * what draws nothing, the blank braille cell (drawn as a space) and marks with no letter to sit on.
 */
export function isBlank(s: string): boolean {
  return (
    seenText(s)
      .replace(/[\u2800\p{M}]/gu, '')
      .trim() === ''
  );
}

/** A line break or another control character: none belongs in a one-line setting or header. */
export const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * The first setting (as `from`, `imap.host` or `hosts[1]`) whose text holds a control character,
 * or null: settings go into mail headers and server commands, a line each.
 */
export function controlCharacterAt(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? at : null;
  const inner: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [`${at}[${i}]`, v])
    : value !== null && typeof value === 'object'
      ? Object.entries(value).map(([k, v]) => [at ? `${at}.${k}` : k, v])
      : [];
  for (const [where, v] of inner) {
    const found = controlCharacterAt(v, where);
    if (found) return found;
  }
  return null;
}

/**
 * Text as one line: each line break or control character, with the spaces beside it, a single
 * space; the ends trimmed. Spaces elsewhere are kept as written.
 */
export function oneLine(text: string): string {
  return text.replace(/\s*[\p{Cc}\u2028\u2029][\p{Cc}\u2028\u2029\s]*/gu, ' ').trim();
}

/**
 * Whether `typed` is `drawn` as a browser's one-line box sends it back: such a box drops the line
 * breaks of the value it was drawn with (a title or a subject an earlier version took on two).
 */
export function sentBackFromOneLine(typed: string, drawn: string): boolean {
  return !/[\r\n]/.test(typed) && typed === drawn.replace(/[\r\n]/g, '');
}

/**
 * Whether `typed` is the text a form was drawn with, sent back unchanged: a browser sends a line
 * break as CR LF whatever the page held, spaces at the ends are no change (every field is
 * trimmed when kept), and a one-line box drops the line breaks of what it was drawn with.
 */
export function sameAsDrawn(typed: string, drawn: string): boolean {
  const lines = (t: string) => t.replace(/\r\n?/g, '\n').trim();
  return lines(typed) === lines(drawn) || sentBackFromOneLine(typed, drawn);
}

/** Whether text holds a line break or a control character, which a one-line field does not. */
export function breaksLine(text: string): boolean {
  return /[\p{Cc}\u2028\u2029]/u.test(text);
}

/** Characters that open a direction for the text after them: embeddings, overrides, isolates. */
const OPENS_DIRECTION = /[\u202A\u202B\u202D\u202E\u2066-\u2068]/;

/**
 * Text that leaves no direction open past its end: each embedding or override (U+202A, B, D, E)
 * it opens and does not close is closed with U+202C, each isolate (U+2066-2068) with U+2069.
 * Quoted in a sentence of the desk's ("Added "…".") or shown beside other text, a right-to-left
 * override typed into a title then stops at the title's end, where it would turn the rest of the
 * sentence around. The text itself reads as it was typed.
 */
export function closeDirections(text: string): string {
  if (!OPENS_DIRECTION.test(text)) return text;
  const open: string[] = [];
  for (const ch of text) {
    if (ch === '\u202A' || ch === '\u202B' || ch === '\u202D' || ch === '\u202E') open.push('\u202C');
    else if (ch === '\u2066' || ch === '\u2067' || ch === '\u2068') open.push('\u2069');
    else if (ch === '\u202C') {
      if (open.at(-1) === '\u202C') open.pop();
    } else if (ch === '\u2069') {
      // Closes the innermost isolate, and whatever was opened inside it (Unicode's bidi rules).
      const i = open.lastIndexOf('\u2069');
      if (i >= 0) open.length = i;
    }
  }
  return text + open.reverse().join('');
}

/**
 * Text in the order of its UTF-8 bytes, as the database orders it (P-reads-9): capitals before
 * small letters, "é" after "z". UTF-16's own order (`<`) differs from it past U+D7FF.
 */
export function byBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
