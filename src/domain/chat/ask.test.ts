import { describe, expect, it } from 'vitest';
import { DeskError } from '../errors.ts';
import { EMPTY_QUESTION, QUESTION_MAX, questionText } from './ask.ts';

// The one rule both doors (the API and the screen's chat box) put a question through.

describe('questionText', () => {
  it.each([
    ['nothing', ''],
    ['whitespace', '   \n\t '],
    ['a zero-width space', '\u200B'],
    ['a zero-width non-joiner', '\u200C'],
    ['a zero-width joiner', '\u200D'],
    ['a word joiner', '\u2060'],
    ['a byte order mark', '\uFEFF'],
    ['invisible characters among whitespace', ' \u200B\u200C \u200D\u2060\uFEFF\n'],
    ['a soft hyphen, a vowel separator, a filler, a variation selector and a tag', '\u00AD\u180E\u3164\uFE0F\u{E0020}'],
    ['direction marks', '\u202E\u2066'],
    ['no-break and ideographic spaces', '\u00A0\u3000'],
  ])('refuses %s as empty', (_, text) => {
    expect(() => questionText(text)).toThrow(new DeskError('bad_request', EMPTY_QUESTION));
  });

  it.each([42, null, undefined, ['what is overdue?'], { text: 'what is overdue?' }])(
    'refuses %j, which is not text, as empty',
    (text) => {
      expect(() => questionText(text)).toThrow(new DeskError('bad_request', EMPTY_QUESTION));
    },
  );

  it.each([
    ['a question', 'what is overdue?', 'what is overdue?'],
    ['a question with whitespace about it, trimmed', '  what is overdue?\n', 'what is overdue?'],
    ['a letter beside a zero-width space', 'x\u200B', 'x\u200B'],
    ['a question mark alone', '?', '?'],
    ['an emoji', '\u{1F600}', '\u{1F600}'],
    ['an emoji with its variation selector', '\u2764\uFE0F', '\u2764\uFE0F'],
    [
      'a right-to-left override it leaves open, closed at its end',
      'add a block for \u202Eevil',
      'add a block for \u202Eevil\u202C',
    ],
    ['an isolate it closes itself, as it is', 'say \u2067word\u2069 here', 'say \u2067word\u2069 here'],
  ])('takes %s', (_, text, taken) => {
    expect(questionText(text)).toBe(taken);
  });

  it('takes a question of up to QUESTION_MAX characters, counting each emoji once, and refuses a longer one', () => {
    expect(questionText('\u{1F600}'.repeat(QUESTION_MAX))).toHaveLength(2 * QUESTION_MAX);
    expect(() => questionText(`${'a '.repeat(QUESTION_MAX / 2)}b`)).toThrow(
      new DeskError('bad_request', 'A question is at most 2,000 characters; this one has 2,001.', { field: 'text' }),
    );
  });
});
