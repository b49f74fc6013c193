import fs from 'node:fs';
import path from 'node:path';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { KEY_FORMAT, keyText, newKey, parseKey, Sealer, SecretKeyError } from './cipher.ts';
import type { DialectName } from './dialect.ts';

// Where the master key comes from: DESK_SECRET_KEY, else (SQLite only) a key file beside the
// database, made at first start with mode 0600. The key rides on the database handle as a
// plugin that changes nothing, so every handle made from it (transactions included) carries it
// and the repositories' signatures stay as they are.

export type KeySource = 'env' | 'file' | 'memory';

export interface SecretKey {
  sealer: Sealer;
  source: KeySource;
  /** The key file, when the key came from one. */
  file: string | null;
  /** The key file was made by this opening: a door says so, since it must be backed up. */
  made?: boolean;
}

class SealerPlugin implements KyselyPlugin {
  constructor(readonly sealer: Sealer) {}
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

export function withSealer<DB>(db: Kysely<DB>, sealer: Sealer): Kysely<DB> {
  return db.withPlugin(new SealerPlugin(sealer));
}

export function sealerOf<DB>(db: Kysely<DB>): Sealer {
  // The most recently added key wins, so a handle can be given another key for one purpose.
  const plugin = db.getExecutor().plugins.findLast((p): p is SealerPlugin => p instanceof SealerPlugin);
  if (!plugin) throw new SecretKeyError('This database handle was opened without a secret key.');
  return plugin.sealer;
}

export function keyFileFor(sqliteFile: string): string {
  return `${path.resolve(sqliteFile)}.key`;
}

export function describeSource(key: SecretKey): string {
  return key.source === 'file'
    ? `the key file ${key.file}`
    : key.source === 'env'
      ? 'DESK_SECRET_KEY'
      : 'a key held in memory';
}

/** Where a key file that is a link to nowhere points; null for any other file, or none. */
function danglingLink(file: string): string | null {
  try {
    if (!fs.lstatSync(file).isSymbolicLink() || fs.existsSync(file)) return null;
    return fs.readlinkSync(file);
  } catch {
    return null;
  }
}

/**
 * A key file that is a link to nowhere is said as such, not as missing or as the system's ENOENT;
 * with secrets sealed, only their own key opens them, so no new one is offered.
 */
function refuseDanglingLink(file: string, sealed = false): void {
  const target = danglingLink(file);
  if (target !== null)
    throw new SecretKeyError(
      `The key file ${file} is a link to ${target}, which does not exist. ${
        sealed
          ? 'Put the key back there, or set DESK_SECRET_KEY to the key the connection secrets were sealed under.'
          : 'Put the key back there, or remove the link to have a new key made.'
      }`,
    );
}

function keyFileMode(file: string): number {
  refuseDanglingLink(file);
  return fs.statSync(file).mode & 0o777;
}

function readKeyFile(file: string): Buffer {
  const mode = keyFileMode(file);
  if (mode & 0o077)
    throw new SecretKeyError(
      `The key file ${file} can be read by others (mode ${mode.toString(8)}); make it private with: chmod 600 ${file}`,
    );
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
    throw new SecretKeyError(
      `The key file ${file} cannot be read by this user; run desk as the user that owns it (the database's secrets are sealed with it).`,
    );
  }
  return parseKey(text, `The key file ${file}`);
}

/** Writes a key file that only its owner can read; refuses to replace one unless told to. */
export function writeKeyFile(file: string, key: Buffer, { replace = false } = {}): void {
  fs.writeFileSync(file, `${keyText(key)}\n`, { mode: 0o600, flag: replace ? 'w' : 'wx' });
  fs.chmodSync(file, 0o600);
}

export function resolveKey(opts: {
  dialect: DialectName;
  /** The SQLite file, or null for PostgreSQL and :memory:. */
  file: string | null;
  envKey: string | null | undefined;
  /** Fingerprints of keys the stored secrets are sealed under. */
  sealedUnder: ReadonlySet<string>;
}): SecretKey {
  if (opts.envKey) return { sealer: new Sealer(parseKey(opts.envKey, 'DESK_SECRET_KEY')), source: 'env', file: null };
  if (opts.dialect === 'postgres')
    throw new SecretKeyError(
      `A PostgreSQL database needs DESK_SECRET_KEY, the master key that seals connection secrets: ${KEY_FORMAT}. Keep it outside the database and give every Desk process the same one.`,
    );
  if (opts.file === null) return { sealer: new Sealer(newKey()), source: 'memory', file: null };
  const file = keyFileFor(opts.file);
  let made = false;
  refuseDanglingLink(file, opts.sealedUnder.size > 0);
  if (!fs.existsSync(file)) {
    if (opts.sealedUnder.size > 0)
      throw new SecretKeyError(
        `The connection secrets in ${path.resolve(opts.file)} are sealed, but their key file ${file} is missing. Put the key file back, or set DESK_SECRET_KEY to the key they were sealed under.`,
      );
    try {
      writeKeyFile(file, newKey());
      made = true;
    } catch (err) {
      // Another process starting at the same moment made it first; both use that one.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return { sealer: new Sealer(readKeyFile(file)), source: 'file', file, made };
}

/** Refuses a key that is not the one the stored secrets were sealed under. */
export function checkKey(key: SecretKey, sealedUnder: ReadonlySet<string>): void {
  for (const fp of sealedUnder)
    if (fp !== key.sealer.fingerprint)
      throw new SecretKeyError(
        `The connection secrets in this database were sealed under the key with fingerprint ${fp}, but ${describeSource(key)} holds the key with fingerprint ${key.sealer.fingerprint}. Start Desk with the key they were sealed under.`,
      );
}
