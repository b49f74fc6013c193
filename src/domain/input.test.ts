import { describe, expect, it } from 'vitest';
import { DeskError } from './errors.ts';
import { clampLimit, parseId, positiveId } from './input.ts';

describe('clampLimit (D18)', () => {
  it.each([
    [undefined, 50],
    [null, 50],
    ['', 50],
    [' ', 50],
    ['abc', 50],
    ['NaN', 50],
    ['Infinity', 50],
    [Number.NaN, 50],
    ['0', 1],
    [0, 1],
    ['-5', 1],
    ['1', 1],
    ['2.9', 2],
    [2.9, 2],
    ['50', 50],
    ['200', 200],
    ['201', 200],
    ['5000', 200],
    [5000, 200],
    [' 7 ', 7],
    ['+7', 7],
    ['.5', 1],
    ['7.', 7],
    ['1e2', 100],
    ['1e309', 200],
    ['-1e309', 1],
    ['9'.repeat(310), 200],
    [Number.POSITIVE_INFINITY, 200],
    ['1.9999999999999999', 1],
    ['-.5', 1],
    ['+.9', 1],
    ['1E3', 200],
    ['0x10', 50],
    ['0b11', 50],
    ['0o7', 50],
    ['7abc', 50],
    ['1_0', 50],
    ['--5', 50],
  ])('%j → %i', (raw, n) => expect(clampLimit(raw)).toBe(n));
});

describe('ids (D20)', () => {
  it.each([
    ['1', 1],
    [1, 1],
    ['42', 42],
    ['2147483647', 2147483647],
  ])('%j names row %i', (raw, n) => {
    expect(positiveId(raw)).toBe(n);
    expect(parseId(raw, 'work item')).toBe(n);
  });

  it.each([
    'abc',
    ' 42 ',
    '42 ',
    '1.5',
    1.5,
    '-1',
    -1,
    '0',
    0,
    '',
    '01',
    '1e3',
    '99999999999999999999',
    1e20,
    '2147483648',
    null,
    undefined,
    [1],
  ])('%j names nothing: not found', (raw) => {
    expect(positiveId(raw)).toBeNull();
    expect(() => parseId(raw, 'arrangement')).toThrow(DeskError);
    try {
      parseId(raw, 'arrangement');
    } catch (e) {
      expect((e as DeskError).code).toBe('not_found');
      expect((e as DeskError).message).toContain('arrangement');
    }
  });
});
