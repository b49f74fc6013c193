// A business file written as JSON is read as JSON, strictly: YAML reads JSON too, but takes
// what JSON refuses (a comma before a closing bracket, a field twice) without a word. This
// finds the first place such text stops being JSON and says why, for a line and a caret.

import { echoed } from '../text.ts';

export interface JsonFault {
  /** Offset into the text. */
  at: number;
  what: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly what: string,
  ) {
    super(what);
  }
}

/**
 * The deepest a value may sit, the file's own mapping being level 1: the YAML reader's limit,
 * so that a file read as JSON is written out by export as YAML that reads back.
 */
export const MAX_LEVELS = 99;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** Where the text first breaks JSON's rules, or null when it is JSON with no field twice in one object. */
export function jsonFault(text: string): JsonFault | null {
  let i = 0;
  const fail = (what: string, at = i): never => {
    throw new Stop(at, what);
  };
  const space = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  };
  const shown = (at: number) => {
    const c = text[at];
    if (c === undefined) return 'the end of the text';
    if (c === '\n' || c === '\r') return 'the end of the line';
    return c === '"' ? `'"'` : `"${c}"`;
  };

  const string = (): void => {
    const start = i++;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (Number.isNaN(c)) fail('the text ends inside the string that opens here', start);
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) fail('\\u needs four hexadecimal digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(`"\\${e ?? ''}" is not an escape JSON knows`);
        continue;
      }
      if (c < 32)
        fail(c === 10 ? 'a line break inside a string (JSON writes it \\n)' : 'a control character inside a string');
      i++;
    }
  };

  let level = 0;
  const value = (): void => {
    space();
    const c = text[i];
    if ((c === '{' || c === '[') && level + 1 >= MAX_LEVELS)
      fail(`nesting deeper than ${MAX_LEVELS} levels, the most a business file may have`);
    level++;
    if (c === '{') object();
    else if (c === '[') array();
    else if (c === '"') string();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) fail('a number must have digits after - and after a point');
      i = NUMBER.lastIndex;
    } else {
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      if (word === undefined)
        fail(
          c === undefined
            ? 'the text ends where a value should be'
            : `a value cannot start with ${shown(i)}; JSON values are "text", numbers, true, false, null, {…} and […]`,
        );
      else i += word.length;
    }
    level--;
  };

  /** After an entry: a comma and another, or the closing bracket; a comma right before the bracket is refused. */
  const next = (close: string): boolean => {
    space();
    if (text[i] === close) {
      i++;
      return false;
    }
    if (text[i] !== ',') fail(`expected , or ${close} but found ${shown(i)}`);
    const comma = i++;
    space();
    if (text[i] === close) fail(`a comma before ${close}, where JSON takes none after the last entry`, comma);
    return true;
  };

  const object = (): void => {
    i++;
    space();
    if (text[i] === '}') {
      i++;
      return;
    }
    const seen = new Set<string>();
    do {
      space();
      if (text[i] !== '"') fail(`expected a field name in double quotes but found ${shown(i)}`);
      const at = i;
      string();
      const name = JSON.parse(text.slice(at, i)) as string;
      if (seen.has(name)) fail(`"${echoed(name)}" is given twice in one object`, at);
      seen.add(name);
      space();
      if (text[i] !== ':') fail(`expected : after the field name but found ${shown(i)}`);
      i++;
      value();
    } while (next('}'));
  };

  const array = (): void => {
    i++;
    space();
    if (text[i] === ']') {
      i++;
      return;
    }
    do value();
    while (next(']'));
  };

  try {
    value();
    space();
    if (i < text.length) fail('more text after the end of the JSON');
    return null;
  } catch (err) {
    if (err instanceof Stop) return { at: err.at, what: err.what };
    // Nesting too deep for this reader: JSON.parse says what it thinks of it.
    if (err instanceof RangeError) return null;
    throw err;
  }
}

/** Line and column (from 1) of an offset. */
export function lineAndColumn(text: string, at: number): { line: number; col: number } {
  // A line ends at CRLF, LF, or a lone CR (an old Mac's files), as YAML and editors count them.
  const breaks = /\r\n?|\n/g;
  let line = 1;
  let start = 0;
  for (let m = breaks.exec(text); m !== null && m.index < at; m = breaks.exec(text)) {
    line++;
    start = m.index + m[0].length;
  }
  return { line, col: at - start + 1 };
}
