import { describe, expect, it } from 'vitest';
import { isEmailAddress, isStoredAddress, notAnAddress } from './address.ts';

describe('what the desk takes for an email address', () => {
  it('takes a plain address, letters of any script, plus tags and apostrophes', () => {
    for (const a of ['a@b.test', 'zoë@bücher.test', "o'brien+tag@x.co.uk", 'a.b-c_d@x', '日本@例え.テスト'])
      expect(isEmailAddress(a), a).toBe(true);
  });

  it("refuses every mark mail's address syntax gives a meaning, and control characters", () => {
    for (const a of [
      'a(b)c@y.test', // c@y.test, with a comment
      'x@y.test(z)',
      'ann:bob@y.test', // a group
      '"x@y.test',
      'ann,bob@y.test',
      'ann;bob@y.test',
      'a[b]@y.test',
      'a\\b@y.test',
      'x@y.test\u0000',
      'x\u0007@y.test',
      'Sam <sam@y.test>',
      'a@b@c.test',
      'a b@c.test',
    ])
      expect(isEmailAddress(a), JSON.stringify(a)).toBe(false);
  });

  it('still reads back, from a business file, what earlier versions took', () => {
    for (const a of ['ann,bob@y.test', 'a(b)c@y.test', 'ann:bob@y.test']) expect(isStoredAddress(a), a).toBe(true);
  });

  it('says which marks to leave out, and only of text written otherwise as one address', () => {
    expect(notAnAddress('a(b)c@y.test')).toBe(
      '"a(b)c@y.test" is not an email address; give a plain address, with none of ( ) " : [ ] \\ in it',
    );
    expect(notAnAddress('ann,bob@y.test')).toBe(
      '"ann,bob@y.test" is not an email address; give one address, with no commas or semicolons',
    );
    expect(notAnAddress('a b(c)@y.test')).toBe('"a b(c)@y.test" is not an email address');
  });
});
