import { describe, expect, it } from 'vitest';
import { isSealed, parseKey, Sealer, SecretKeyError } from './cipher.ts';

const KEY = Buffer.alloc(32, 3);

describe('the secret cipher', () => {
  it('seals to a different text each time and opens back to the same secret', () => {
    const s = new Sealer(KEY);
    const a = s.seal('hunter2 ünï');
    const b = s.seal('hunter2 ünï');
    expect(a).not.toBe(b);
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain('hunter2');
    expect(s.open(a)).toBe('hunter2 ünï');
  });

  it('refuses another key, and a value changed by one character', () => {
    const sealed = new Sealer(KEY).seal('secret');
    expect(() => new Sealer(Buffer.alloc(32, 4)).open(sealed)).toThrow(SecretKeyError);
    // A character well inside the base64 text, so every one of its bits carries data.
    const at = sealed.length - 10;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(() => new Sealer(KEY).open(tampered)).toThrow(/damaged/);
  });

  it('reads a key as 64 hex digits or base64, and nothing shorter', () => {
    expect(parseKey(KEY.toString('hex'), 'k')).toEqual(KEY);
    expect(parseKey(KEY.toString('base64'), 'k')).toEqual(KEY);
    expect(parseKey(`${KEY.toString('base64url')}\n`, 'k')).toEqual(KEY);
    expect(() => parseKey('abc', 'DESK_SECRET_KEY')).toThrow(/^DESK_SECRET_KEY must be 32 random bytes/);
    expect(() => parseKey(Buffer.alloc(16).toString('hex'), 'k')).toThrow(SecretKeyError);
  });
});
