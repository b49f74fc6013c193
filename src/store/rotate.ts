import fs from 'node:fs';
import { keyText, Sealer, SecretKeyError } from './cipher.ts';
import type { Store } from './db.ts';
import { resealSecrets } from './repositories/connections.ts';
import { writeKeyFile } from './secret-key.ts';

// `desk secrets rotate`: every connection secret is opened under the key in use and sealed
// under the new one in a single transaction, so the database never holds a mix. A key file is
// replaced only after the transaction commits; until then the new key waits beside it
// (<file>.next), so a crash in between leaves both keys on disk.

export interface Rotation {
  connections: number;
  fingerprint: string;
  /** The key file now holding the new key, or null when the key came from DESK_SECRET_KEY. */
  file: string | null;
  /** The new key as DESK_SECRET_KEY takes it; null when it went into the key file. */
  key: string | null;
}

export async function rotateSecretKey(store: Store, key: Buffer): Promise<Rotation> {
  const current = store.secretKey;
  if (current.source === 'memory')
    throw new SecretKeyError('An in-memory database keeps its key only while it is open; there is nothing to rotate.');
  const next = new Sealer(key);
  if (next.fingerprint === current.sealer.fingerprint)
    throw new SecretKeyError('The new key is the key already in use; give a different one.');
  const staged = current.file ? `${current.file}.next` : null;
  if (staged) writeKeyFile(staged, key, { replace: true });
  let connections: number;
  try {
    connections = await resealSecrets(store.db, current.sealer, next);
  } catch (err) {
    // Nothing was re-sealed: the new key opens nothing, and goes.
    if (staged) fs.rmSync(staged, { force: true });
    throw err;
  }
  // From here the secrets are under the new key: whatever fails, the staged key stays.
  if (staged && current.file)
    try {
      fs.renameSync(staged, current.file);
    } catch (err) {
      throw new SecretKeyError(
        `The secrets were sealed under the new key (fingerprint ${next.fingerprint}), but it could not be put in place of ${current.file}: ${(err as Error).message}. The new key is in ${staged}: copy it over ${current.file} before Desk starts again.`,
      );
    }
  await store.forgetReplaced();
  return { connections, fingerprint: next.fingerprint, file: current.file, key: staged ? null : keyText(key) };
}
