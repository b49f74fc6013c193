import { describe, expect, it } from 'vitest';
import { money } from './words.ts';

describe('money in an answer', () => {
  it("is written in the currency's own notation, exactly, to the largest amount a desk keeps", () => {
    expect(money(1500, 'GBP')).toBe('£15.00');
    expect(money(1500, 'JPY')).toBe('JP¥1,500');
    expect(money(Number.MAX_SAFE_INTEGER, 'GBP')).toBe('£90,071,992,547,409.91');
  });
});
