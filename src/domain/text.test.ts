import { describe, expect, it } from 'vitest';
import {
  byBytes,
  sentBackFromOneLine,
  asSentence,
  clipped,
  closeDirections,
  cutAt,
  echoed,
  echoedJson,
  isBlank,
  longerThan,
  seenText,
  plural,
  storable,
  unstorableIn,
} from './text.ts';

describe('plural', () => {
  it('counts one and many, with the irregular words and large counts grouped by thousands', () => {
    expect([plural(1, 'unit'), plural(0, 'unit'), plural(3, 'entry'), plural(2, 'watch', 'watches')]).toEqual([
      '1 unit',
      '0 units',
      '3 entries',
      '2 watches',
    ]);
    expect(plural(100_000, 'work item')).toBe('100,000 work items');
  });
});

describe('text from outside, made storable', () => {
  it('finds NUL characters and lone surrogates, and nothing in whole pairs', () => {
    expect(unstorableIn('plain')).toBeNull();
    expect(unstorableIn('a\u0000b')).toBe('nul');
    expect(unstorableIn('x\ud83dy')).toBe('surrogate');
    expect(unstorableIn('\udfff')).toBe('surrogate');
    expect(unstorableIn('smile \u{1F600}')).toBeNull();
  });

  it('drops NUL characters and replaces lone surrogates all through objects and arrays', () => {
    const when = new Date('2026-01-02T03:04:05Z');
    expect(
      storable({ a: 'x\u0000y', b: ['\ud800', 'ok \u{1F600}'], c: { 'k\u0000': 'z\udc00' }, n: 3, t: null, when }),
    ).toEqual({ a: 'xy', b: ['\uFFFD', 'ok \u{1F600}'], c: { k: 'z\uFFFD' }, n: 3, t: null, when });
  });

  it('gives back the very text it was given when there is nothing to clean', () => {
    const s = 'Renew the lease';
    expect(storable(s)).toBe(s);
  });
});

describe('blank text', () => {
  it.each([
    ['nothing', ''],
    ['spaces, tabs and line ends', ' \t\r\n '],
    ['zero-width and joiner characters', '\u200B\u200C\u200D\u2060'],
    ['a byte-order mark and a soft hyphen', '\uFEFF\u00AD'],
    ['direction marks and a variation selector', '\u200E\u200F\uFE0F'],
    ['a control character', '\u0007'],
    ['a blank braille cell', '\u2800\u2800'],
    ['Hangul fillers', '\u3164\uFFA0\u115F'],
    ['an accent with no letter under it', '\u0301 \u0308'],
  ])('%s is blank', (_name, s) => {
    expect(isBlank(s)).toBe(true);
  });

  it.each([
    ['a word', 'rent'],
    ['a word with a zero-width space before it', '\u200Brent'],
    ['a full stop', '.'],
    ['an emoji with its variation selector', '\u2764\uFE0F'],
    ['a non-Latin letter', '\u0639'],
    ['a letter and its accent, apart', 'e\u0301'],
    ['a braille letter', '\u2801'],
  ])('%s is not', (_name, s) => {
    expect(isBlank(s)).toBe(false);
  });
});

describe('text cut at a limit', () => {
  it('never splits a character as drawn: a flag, a joined family, a letter and its accent', () => {
    expect(cutAt(`${'a'.repeat(9)}🇬🇧`, 10)).toBe('a'.repeat(9));
    expect(cutAt(`${'a'.repeat(8)}👨‍👩‍👧`, 10)).toBe('a'.repeat(8));
    expect(cutAt(`${'a'.repeat(9)}e\u0301`, 10)).toBe('a'.repeat(9));
    expect(cutAt(`${'a'.repeat(8)}🇬🇧x`, 10)).toBe(`${'a'.repeat(8)}🇬🇧`);
  });

  it('cuts one character longer than the whole limit where the limit falls, rather than to nothing', () => {
    expect(cutAt(`e${'\u0301'.repeat(20)}`, 5)).toBe(`e${'\u0301'.repeat(4)}`);
  });

  it('counts the marks that close a direction left open in the limit', () => {
    const long = `\u202E\u2066${'A'.repeat(5_000)}`;
    const kept = cutAt(long, 4_000);
    expect(Array.from(kept)).toHaveLength(4_000);
    expect(kept).toBe(`\u202E\u2066${'A'.repeat(3_996)}\u2069\u202C`);
    // Text that fits until it is closed is cut to make room too; text that closes itself is not.
    expect(cutAt('\u202Eabcd', 5)).toBe('\u202Eabc\u202C');
    expect(cutAt('\u202Eabc\u202C', 5)).toBe('\u202Eabc\u202C');
    for (let max = 0; max < 8; max++)
      expect(Array.from(cutAt('\u202E\u2067\u202Ea\u202Eb', max)).length).toBeLessThanOrEqual(max);
  });
});

describe('a given value, echoed in a refusal', () => {
  const long = 'a'.repeat(100_000);
  it.each([
    ['short text, as given', 'urgent', 60, 'urgent'],
    ['spaces kept when it fits', ' 5 ', 60, ' 5 '],
    ['a number', 7, 60, '7'],
    ['null', null, 60, 'null'],
    ['exactly the limit', 'a'.repeat(60), 60, 'a'.repeat(60)],
    ['one past the limit', 'a'.repeat(61), 60, `${'a'.repeat(60)}…`],
    ['a huge value', long, 60, `${'a'.repeat(60)}…`],
    ['pairs counted as one character and never split', '\u{1F600}'.repeat(5), 3, `${'\u{1F600}'.repeat(3)}…`],
    ['pairs that fit, whole', '\u{1F600}'.repeat(3), 3, '\u{1F600}'.repeat(3)],
    ['spaces before the cut dropped', `abc ${'d'.repeat(10)}`, 4, 'abc…'],
    ['a huge run of spaces', `${' '.repeat(100_000)}x`, 60, 'x…'],
    [
      'line breaks, tabs and escapes written out',
      'a@b.test\r\nBcc:\tx\u001b[2J\u0085',
      60,
      'a@b.test\\r\\nBcc:\\tx\\u001b[2J\\u0085',
    ],
  ])('%s', (_, value, max, shown) => {
    expect(echoed(value, max)).toBe(shown);
  });
});

describe('a given value, named as JSON in a refusal', () => {
  it.each([
    ['a short string, quoted', 'yearly', '"yearly"'],
    ['a number, bare', 12.5, '12.5'],
    ['infinity in words, not as the null JSON writes', Number.POSITIVE_INFINITY, 'infinity'],
    ['minus infinity in words', Number.NEGATIVE_INFINITY, 'minus infinity'],
    ['not a number in words', Number.NaN, 'not a number (.nan)'],
    ['a list', [1, 2], '[1,2]'],
    ['a long string, its closing quote kept', 'b'.repeat(100), `"${'b'.repeat(60)}…"`],
    ['quotes inside escaped', 'say "hi"', '"say \\"hi\\""'],
    ['control characters written out once', 'a\r\n\u001b', '"a\\r\\n\\u001b"'],
    [
      'a long list, cut',
      Array.from({ length: 50 }, (_, i) => i),
      `${JSON.stringify(Array.from({ length: 50 }, (_, i) => i)).slice(0, 60)}…`,
    ],
  ])('%s', (_, value, shown) => {
    expect(echoedJson(value)).toBe(shown);
  });
});

describe('text as a person reads it', () => {
  it.each([
    ['plain text, as it is', 'pay the rent', 'pay the rent'],
    ['a zero-width space in front, gone', '\u200Bpay the rent', 'pay the rent'],
    ['a word joiner and a byte-order mark, gone', 'pay\u2060 the\uFEFF rent', 'pay the rent'],
    ['a soft hyphen inside a word, gone', 'in\u00ADvoice', 'invoice'],
    ['spaces, tabs and line breaks, kept', 'pay\tthe\nrent ', 'pay\tthe\nrent '],
    ['letters of other scripts, kept', '\u0639\u0631\u0628\u064A', '\u0639\u0631\u0628\u064A'],
    ['the joiners of an emoji, kept', '🍞 👨\u200D👩\u200D👧 family', '🍞 👨\u200D👩\u200D👧 family'],
    ['an emoji with its variation selector, kept', 'love ❤\uFE0F', 'love ❤\uFE0F'],
    ['a joiner or selector between letters, gone', 'pa\u200Dy th\uFE0Fe rent', 'pay the rent'],
  ])('%s', (_, text, seen) => {
    expect(seenText(text)).toBe(seen);
  });
});

describe('text that leaves no direction open past its end', () => {
  const RLO = '\u202E';
  const PDF = '\u202C';
  const RLI = '\u2067';
  const PDI = '\u2069';
  it.each([
    ['plain text, as it is', 'Paid in full', 'Paid in full'],
    ['Arabic and Hebrew, and their marks, as they are', 'فاتورة \u200Fשלום', 'فاتورة \u200Fשלום'],
    ['an override left open, closed at the end', `Paid ${RLO}evil`, `Paid ${RLO}evil${PDF}`],
    ['an override closed in the text, as it is', `a ${RLO}b${PDF} c`, `a ${RLO}b${PDF} c`],
    ['an isolate left open, closed at the end', `a ${RLI}b`, `a ${RLI}b${PDI}`],
    ['nested, closed innermost first', `${RLI}a${RLO}b`, `${RLI}a${RLO}b${PDF}${PDI}`],
    ['an override inside a closed isolate ends with it', `${RLI}a${RLO}b${PDI} c`, `${RLI}a${RLO}b${PDI} c`],
    ['a stray closer, as it is', `a${PDF}${PDI}`, `a${PDF}${PDI}`],
  ])('%s', (_what, given, kept) => {
    expect(closeDirections(given)).toBe(kept);
    // Closing again changes nothing: a value read back and stored again stays the same.
    expect(closeDirections(closeDirections(given))).toBe(kept);
  });
});

describe('text longer than a limit', () => {
  it('counts characters as a person does: an emoji is one', () => {
    expect(longerThan('😀'.repeat(300), 500)).toBe(false);
    expect(longerThan('😀'.repeat(500), 500)).toBe(false);
    expect(longerThan('😀'.repeat(501), 500)).toBe(true);
    expect(longerThan('a'.repeat(501), 500)).toBe(true);
    expect(longerThan('', 0)).toBe(false);
  });
});

describe('text clipped to a limit', () => {
  it('cuts at whole characters, never half of an emoji, and marks the cut', () => {
    expect(clipped('a'.repeat(5), 5)).toBe('aaaaa');
    expect(clipped('a'.repeat(6), 5)).toBe('aaaa…');
    const cut = clipped(`${'a'.repeat(118)}😀😀😀`, 120);
    expect(cut).toBe(`${'a'.repeat(118)}😀…`);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(Array.from(cut)).toHaveLength(120);
    expect(clipped('😀'.repeat(120), 120)).toBe('😀'.repeat(120));
  });
});

describe('a label as a sentence', () => {
  it('keeps its own stop and adds a full stop to one that has none', () => {
    expect(asSentence('How does this one get done?')).toBe('How does this one get done?');
    expect(asSentence('Prepare this')).toBe('Prepare this.');
    expect(asSentence('Done.  ')).toBe('Done.');
    expect(asSentence('Read "the reply!"')).toBe('Read "the reply!"');
  });
});

describe('a value sent back by a one-line box', () => {
  it('is the value it was drawn with, its line breaks dropped, and nothing else', () => {
    expect(sentBackFromOneLine('Renew the lease', 'Renew the\r\nlease')).toBe(false);
    expect(sentBackFromOneLine('Renew thelease', 'Renew the\r\nlease')).toBe(true);
    expect(sentBackFromOneLine('Renew the lease', 'Renew the lease')).toBe(true);
    expect(sentBackFromOneLine('Renew the\nlease', 'Renew the\nlease')).toBe(false);
    expect(sentBackFromOneLine('Renew it', 'Renew the\nlease')).toBe(false);
  });
});

describe('byBytes', () => {
  it('orders text as its UTF-8 bytes do, past the characters UTF-16 orders otherwise', () => {
    const words = ['😀', 'ｗ', 'é', 'z', 'Z', 'zz', ''];
    const bytes = [...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...words].sort(byBytes)).toEqual(bytes);
    expect(bytes).toEqual(['', 'Z', 'z', 'zz', 'é', 'ｗ', '😀']);
    expect(byBytes('a😀', 'a😀')).toBe(0);
  });
});
