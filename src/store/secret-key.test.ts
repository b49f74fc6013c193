import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretKeyError } from './cipher.ts';
import { keyFileFor, resolveKey } from './secret-key.ts';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a key file beside a SQLite database', () => {
  it('is made at first start, and read again after', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-key-'));
    const db = path.join(dir, 'desk.db');
    const first = resolveKey({ dialect: 'sqlite', file: db, envKey: null, sealedUnder: new Set() });
    expect(first.made).toBe(true);
    const again = resolveKey({ dialect: 'sqlite', file: db, envKey: null, sealedUnder: new Set() });
    expect(again.made).toBe(false);
    expect(again.sealer.fingerprint).toBe(first.sealer.fingerprint);
  });

  it('that is a link to nowhere is said as such, naming where it points', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-key-'));
    const db = path.join(dir, 'desk.db');
    const gone = path.join(dir, 'keys', 'desk.key');
    fs.symlinkSync(gone, keyFileFor(db));
    const open = () => resolveKey({ dialect: 'sqlite', file: db, envKey: null, sealedUnder: new Set() });
    expect(open).toThrow(SecretKeyError);
    expect(open).toThrow(`is a link to ${gone}, which does not exist. Put the key back there, or remove the link`);
    // Nothing was made in its place.
    expect(fs.lstatSync(keyFileFor(db)).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(gone)).toBe(false);
    // So is it where secrets are sealed under the key it should hold.
    const sealed = () => resolveKey({ dialect: 'sqlite', file: db, envKey: null, sealedUnder: new Set(['f00d']) });
    expect(sealed).toThrow(
      `is a link to ${gone}, which does not exist. Put the key back there, or set DESK_SECRET_KEY to the key the connection secrets were sealed under.`,
    );
  });
});
