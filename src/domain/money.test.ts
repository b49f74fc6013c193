import { describe, expect, it } from 'vitest';
import { amountWords, decimalOf, minorDigits, minorOf } from './money.ts';

// Money in the currency's minor units, as the contract keeps it, read and written with the
// currency's own digits and exactly, up to the largest whole number a business file takes.

describe('a currency and its minor unit', () => {
  it('has the digits the currency has', () => {
    expect([minorDigits('GBP'), minorDigits('JPY'), minorDigits('KWD')]).toEqual([2, 0, 3]);
    // ISO 4217's, not the digits a price is usually shown with: a forint and a rupiah have hundredths.
    expect([minorDigits('HUF'), minorDigits('IDR'), minorDigits('IQD'), minorDigits('jpy')]).toEqual([2, 2, 3, 0]);
    expect([minorDigits(''), minorDigits('not a code')]).toEqual([2, 2]);
  });
});

describe('an amount typed by the owner', () => {
  it.each([
    ['1250', 'GBP', 125000],
    ['1,250.5', 'GBP', 125050],
    ['1,234,567.00', 'GBP', 123456700],
    ['0.07', 'GBP', 7],
    ['1500', 'JPY', 1500],
    ['1,500', 'JPY', 1500],
    ['1500.00', 'JPY', 1500],
    ['1.5', 'KWD', 1500],
    ['1.234', 'KWD', 1234],
    ['90071992547409.91', 'GBP', Number.MAX_SAFE_INTEGER],
    ['1000000000000.00', 'GBP', 100000000000000],
    // A comma groups thousands only; anything else is no amount, not another sum.
    ['12,34', 'GBP', null],
    ['1,2,3,4.5', 'GBP', null],
    [',,,5', 'GBP', null],
    ['1250,', 'GBP', null],
    ['12,345,6', 'GBP', null],
    // A decimal comma after a nought, which no grouping of thousands begins with.
    ['0,500', 'KWD', null],
    ['0,250', 'GBP', null],
    ['00,500', 'GBP', null],
    ['012,345', 'BHD', null],
    ['12.345', 'GBP', null],
    ['1500.5', 'JPY', null],
    ['1.2345', 'KWD', null],
    ['90071992547409.92', 'GBP', null],
    ['-3', 'GBP', null],
    ['twelve', 'GBP', null],
  ])('%s %s is %s in minor units', (text, currency, minor) => {
    expect(minorOf(text, currency)).toBe(minor);
  });
});

describe('an amount shown', () => {
  it('is written with the currency’s digits, exactly, and read back as it was', () => {
    expect(decimalOf(125050, 'GBP')).toBe('1250.50');
    expect(decimalOf(7, 'GBP')).toBe('0.07');
    expect(decimalOf(1500, 'JPY')).toBe('1500');
    expect(decimalOf(1500, 'KWD')).toBe('1.500');
    expect(decimalOf(Number.MAX_SAFE_INTEGER, 'GBP')).toBe('90071992547409.91');
    expect(amountWords(Number.MAX_SAFE_INTEGER, 'GBP')).toBe('90,071,992,547,409.91 GBP');
    expect(amountWords(1500, 'JPY')).toBe('1,500 JPY');
    expect(amountWords(125050, 'GBP')).toBe('1,250.50 GBP');
    for (const [minor, currency] of [
      [Number.MAX_SAFE_INTEGER, 'GBP'],
      [1500, 'JPY'],
      [1234, 'KWD'],
      [0, 'GBP'],
    ] as const)
      expect(minorOf(decimalOf(minor, currency), currency)).toBe(minor);
  });
});
