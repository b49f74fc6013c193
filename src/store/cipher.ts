import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// AES-256-GCM under the desk's master key. A sealed value names the key it was sealed under
// (a fingerprint, never the key), so a wrong key is told apart from damaged data.

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'sealed:v1:';
const AAD = Buffer.from('desk connection secret v1');

/** A sealed value that cannot be opened with the key at hand. */
export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

export const KEY_FORMAT = '32 random bytes as 64 hex digits or 44 base64 characters (openssl rand -base64 32)';

/** The key's bytes from its text form (hex or base64); `from` names where it came from in the error. */
export function parseKey(text: string, from: string): Buffer {
  const raw = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64')
      : null;
  if (!key || key.length !== KEY_BYTES) throw new SecretKeyError(`${from} must be ${KEY_FORMAT}.`);
  return key;
}

export function newKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function keyText(key: Buffer): string {
  return key.toString('base64');
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/** The fingerprint of the key a sealed value was sealed under. */
export function sealedUnder(value: string): string {
  return value.slice(PREFIX.length).split(':', 1)[0] ?? '';
}

export class Sealer {
  readonly fingerprint: string;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new SecretKeyError(`A secret key must be ${KEY_BYTES} bytes.`);
    this.#key = Buffer.from(key);
    this.fingerprint = createHash('sha256').update(key).digest('hex').slice(0, 12);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv).setAAD(AAD);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.fingerprint}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    const under = sealedUnder(sealed);
    if (under !== this.fingerprint)
      throw new SecretKeyError(
        `A connection secret was sealed under the key with fingerprint ${under}, but the key in use has fingerprint ${this.fingerprint}. Start Desk with the key the secrets were sealed under (DESK_SECRET_KEY or the key file).`,
      );
    const bytes = Buffer.from(sealed.slice(PREFIX.length + under.length + 1), 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES)).setAAD(AAD);
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretKeyError('A connection secret is damaged and cannot be opened; set it again.');
    }
  }
}
