import type { Command } from 'commander';
import { plural } from '../../domain/text.ts';
import { dbOption, jsonOption, print, UsageError, withDeps, type DbOptions, type Io } from '../io.ts';

export function secretsCommands(program: Command, io: Io): void {
  const secrets = program.command('secrets').description('Manage the master key that seals connection secrets');

  jsonOption(
    dbOption(
      secrets
        .command('rotate')
        .description(
          'Re-seal every connection secret under a new master key, in one transaction. Stop every Desk server using this database first: one left running keeps the old key and can no longer open a secret until it is restarted',
        )
        .option('--new-key <key>', 'the new key, 32 bytes as hex or base64 (default: a new random one)'),
    ),
  ).action(async (opts: DbOptions & { newKey?: string; json?: boolean }) => {
    const { newKey, parseKey } = await import('../../store/cipher.ts');
    const { rotateSecretKey } = await import('../../store/rotate.ts');
    await withDeps(io, opts, async (deps) => {
      const key = opts.newKey === undefined ? newKey() : parseKey(opts.newKey, '--new-key');
      // 32 random bytes hold about 28 different values; fewer than 16 is a key typed by hand
      // (all zeros, a repeated pattern), which seals the secrets as good as in the clear.
      if (new Set(key).size < 16)
        throw new UsageError(
          '--new-key is not random: it holds fewer than 16 different bytes. Leave it out for a random key, or make one with `openssl rand -base64 32`.',
        );
      const r = await rotateSecretKey(deps.store, key);
      // A key the operator typed is not printed back; a key made here is shown once.
      const shown = opts.newKey === undefined ? r.key : null;
      print(io, opts.json, { connections: r.connections, fingerprint: r.fingerprint, file: r.file, key: shown }, () =>
        [
          `Re-sealed ${plural(r.connections, 'connection')} under the new key (fingerprint ${r.fingerprint}).`,
          ...(r.file
            ? [`The key file ${r.file} now holds the new key. Restart every Desk process that uses this database.`]
            : [
                ...(shown ? ['The new key, shown once:', `  ${shown}`] : []),
                'Set DESK_SECRET_KEY to the new key for every Desk process and restart them; the old key no longer opens anything.',
              ]),
        ].join('\n'),
      );
    });
  });
}
