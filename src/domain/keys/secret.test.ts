import { describe, expect, it } from 'vitest';
import { hashKey, looksLikeKey, newKeySecret } from './secret.ts';

describe('key secrets', () => {
  it('stores the SHA-256 of the key in hex, so the hashes of keys made by any earlier release still match', () => {
    // The expected value is `printf %s KEY | sha256sum`, worked out apart from this code.
    expect(hashKey('desk_0123456789abcdefghijABCDEFGHIJ0123456789')).toBe(
      '4017c1666a7a4aaccf3498dfefd56f04ef58298bddb70b4b927b35865f791401',
    );
  });

  it('makes keys that look like keys, each different', () => {
    const a = newKeySecret();
    const b = newKeySecret();
    expect(looksLikeKey(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(looksLikeKey(`${a}x`)).toBe(false);
  });
});
