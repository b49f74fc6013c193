import { describe, expect, it } from 'vitest';
import { readYaml, writeYaml } from './yaml.ts';

const value = (text: string) => {
  const r = readYaml(text);
  if ('fault' in r) throw new Error(r.fault);
  return r.value;
};
const fault = (text: string) => {
  const r = readYaml(text);
  if (!('fault' in r)) throw new Error(`read as ${JSON.stringify(r.value)}`);
  return r;
};

describe('readYaml', () => {
  it('reads the YAML 1.2 core schema: dates, yes and 0b11 stay text', () => {
    expect(value('a: 2026-12-01\nb: yes\nc: 0b11\nd: 0x10\ne: 12\nf: true\ng: ~\nh: "+3d"\ni: 1.5\n')).toEqual({
      a: '2026-12-01',
      b: 'yes',
      c: '0b11',
      d: 16,
      e: 12,
      f: true,
      g: null,
      h: '+3d',
      i: 1.5,
    });
  });

  it('reads an empty file, or one of comments, as nothing', () => {
    expect(value('')).toBeNull();
    expect(value('# only a comment\n\n')).toBeNull();
  });

  it('says where a syntax error is, counting lines and columns from 1', () => {
    expect(fault('desk: {a: 1, a: 2}\n')).toEqual({
      fault: 'duplicated mapping key at line 1, column 14.',
      at: { line: 1, col: 14 },
    });
    expect(fault('a: 1\n  b: 2\n').at).toEqual({ line: 2, col: 4 });
  });

  it('refuses a file of several documents', () => {
    expect(fault('a: 1\n---\nb: 2\n')).toEqual({
      fault: 'it holds 2 documents (split by ---); a business file is one. The second starts at line 2.',
      at: { line: 2, col: 1 },
    });
    // A file that opens with ---, comments and blank lines, and a block scalar before the split.
    expect(fault('# a file\n---\n\na: |\n  text\n  more\n--- # next\nb: 2\n').at).toEqual({ line: 7, col: 1 });
    // A document ended with ... and another after it, with no --- between.
    expect(fault('a: 1\n...\n# note\nb: 2\n').at).toEqual({ line: 4, col: 1 });
    expect(fault('a: 1\r\n---\r\nb: 2\r\n---\r\nc: 3\r\n').fault).toMatch(/^it holds 3 documents .* line 2\.$/);
  });

  it('takes aliases that repeat a value a few times', () => {
    expect(value('steps: &login [{goto: x}, {click: y}]\nagain: *login\n')).toEqual({
      steps: [{ goto: 'x' }, { click: 'y' }],
      again: [{ goto: 'x' }, { click: 'y' }],
    });
  });

  it('refuses an alias inside the value it names', () => {
    expect(fault('a: &x [1, *x]\n').fault).toBe('an alias inside the value it names.');
  });

  it('refuses aliases that multiply a few lines into millions of values', () => {
    const levels = ['l0: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) {
      const tenOfTheLast = Array(10)
        .fill(`*l${i - 1}`)
        .join(', ');
      levels.push(`l${i}: &l${i} [${tenOfTheLast}]`);
    }
    expect(fault(`${levels.join('\n')}\n`).fault).toBe('its aliases expand it to more than 100,000 values.');
  });
});

describe('writeYaml', () => {
  it('writes what readYaml reads back the same, text that looks like other types included', () => {
    const doc = {
      dates: ['2026-12-01', '+3d', 'today'],
      words: ['yes', 'no', 'true', 'null', '0b11', '123', ''],
      text: 'Line one\nline two: with a colon',
      n: [0, 12, 1.5],
      none: null,
      nested: { list: [{ a: 1 }, { b: 'Invoice #1' }] },
    };
    expect(value(writeYaml(doc))).toEqual(doc);
  });

  it('writes a value used twice out twice, with no anchors', () => {
    const shared = { a: 1 };
    expect(writeYaml({ first: shared, second: shared })).toBe('first:\n  a: 1\nsecond:\n  a: 1\n');
  });
});

describe('tags', () => {
  it('refuses one the core schema does not have, and reads its own as YAML reads them', () => {
    for (const text of ['a: !foo bar\n', 'a: !!binary aGVsbG8=\n', 'a: !!timestamp 2026-01-01\n']) {
      const read = readYaml(text);
      expect('fault' in read && read.fault, text).toMatch(/^unknown scalar tag !<.+> at line 1, column \d+\.$/);
    }
    expect(readYaml('a: !!str 2026\nb: !!int "5"\nc: ! x\n')).toEqual({ value: { a: '2026', b: 5, c: 'x' } });
  });
});
