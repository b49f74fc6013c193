import { hash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_BRAND = 'desk_';
export const KEY_PREFIX_LENGTH = 12;
const KEY_RANDOM_LENGTH = 40;

/** A new key: the brand and 40 random base62 characters (D24). */
export function newKeySecret(): string {
  let s = KEY_BRAND;
  for (let i = 0; i < KEY_RANDOM_LENGTH; i++) s += BASE62[randomInt(62)];
  return s;
}

export function looksLikeKey(s: string): boolean {
  return (
    s.length === KEY_BRAND.length + KEY_RANDOM_LENGTH &&
    s.startsWith(KEY_BRAND) &&
    /^[0-9A-Za-z]+$/.test(s.slice(KEY_BRAND.length))
  );
}

/**
 * Only this is stored; a key is shown once, when it is made. Every keyed request hashes its key,
 * so the one-shot `hash` is used: it builds no Hash object, a third of `createHash`'s cost.
 */
export function hashKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}
