import { describe, expect, it } from 'vitest';
import { fieldLines, keptKinds, linesOf } from './save-unit.ts';

describe("a unit's columns saved from the form", () => {
  it('keeps a number a number while its text reads as one, and takes everything else as text', () => {
    const before = { seats: 3, ratio: 1e-7, tiny: -2.5e-300, code: '01234', lease_end: '2027-03-31', odd: 12 };
    const same = keptKinds(fieldLines(linesOf(before)).fields, before);
    expect({ ...same }).toEqual(before);

    const edited = keptKinds(fieldLines('seats: 4\nratio: -2.5E3\ncode: 0777\nodd: twelve\nnew: 5').fields, before);
    expect({ ...edited }).toEqual({ seats: 4, ratio: -2500, code: '0777', odd: 'twelve', new: '5' });
    // A number's column emptied is empty; one the form leaves out is gone.
    expect({ ...keptKinds({ seats: null }, before) }).toEqual({ seats: null });
    // Text a JSON number is not stays text, even where a number was.
    for (const text of ['03', '1.', '.5', '+1', '0x10', 'Infinity', '1_000', '1 000', '12345678901234567890', '1e400'])
      expect(keptKinds({ seats: text }, before).seats, text).toBe(text);
  });

  it('keeps a stored column whose lines are as drawn, and reads the lines around it', () => {
    const stored = { 'a: b': 'c', note: 'one\ntwo: 2', '': 'x', ' padded ': ' y ', empty: '', n: 5, flag: true };
    expect(fieldLines(linesOf(stored), stored)).toEqual({ fields: stored, problem: null });
    expect(fieldLines(linesOf(stored).replace(/\n/g, '\r\n'), stored).fields).toEqual(stored);
    // Read as typed where changed: the value's second line alone is a column of its own.
    const changed = fieldLines('note: one\ntwo: 3\na: b: d', stored);
    expect(changed).toEqual({ fields: { note: 'one', two: '3', a: 'b: d' }, problem: null });
    // Drawn twice is given twice.
    expect(fieldLines('n: 5\nn: 5', stored).problem).toBe('"n" is given twice; each column once.');
  });

  it('reads no column from what every object has', () => {
    expect({ ...keptKinds(fieldLines('toString: 3\n__proto__: 4').fields, {}) }).toEqual({
      toString: '3',
      ['__proto__']: '4',
    });
  });
});
