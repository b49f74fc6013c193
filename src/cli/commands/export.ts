import { accessSync, chmodSync, constants, lstatSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { isPostgresUrl } from '../../store/location.ts';
import { keyFileFor } from '../../store/secret-key.ts';
import { neededOption } from '../checks.ts';
import { dbOption, fileFault, ownerContext, print, UsageError, withDeps, type DbOptions, type Io } from '../io.ts';

/** Whether two names are one file: the same path, or (both there) the same file on the disk. */
function sameFile(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** Refuses to write the business file over the SQLite database it is read from, or its files. */
function notTheStore(file: string, database: string): void {
  if (isPostgresUrl(database)) return;
  const db = database.startsWith('file:') ? database.slice(5) : database;
  const own = [db, `${db}-wal`, `${db}-shm`, `${db}-journal`, keyFileFor(db)];
  if (own.some((f) => sameFile(file, f)))
    throw new UsageError(
      `${file} is the database the desk is read from (or one of its files), so nothing was written; name another file.`,
    );
}

/**
 * Writes the file whole or not at all where it can: a file of the owner's own (or a new one) is
 * written beside itself and renamed into place, so a disk that fills part way leaves the earlier
 * file as it was rather than a cut-off one that reads as a smaller desk. Anything else is
 * written where it is, as a shell's `>` writes: a link (followed), a file with other links or
 * another owner, a pipe or `/dev/fd/N` (added to, not replaced), and a file in a folder the
 * owner cannot write to; a file the owner may not write is refused as `>` refuses it.
 */
function writeWhole(file: string, text: string): void {
  try {
    const was = lstatSync(file, { throwIfNoEntry: false });
    if (was?.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    const own = !was || (was.isFile() && was.nlink === 1 && was.uid === process.getuid?.());
    if (was?.isFile()) accessSync(file, constants.W_OK);
    if (!own || !renamedInto(file, text, was?.mode)) writeFileSync(file, text, 'utf8');
  } catch (err) {
    throw fileFault(file, err, 'write');
  }
}

/** Writes `text` beside `file` and renames it into place; false when the folder takes no new file. */
function renamedInto(file: string, text: string, mode: number | undefined): boolean {
  const part = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.part`);
  try {
    writeFileSync(part, text, { encoding: 'utf8', flag: 'wx' });
    if (mode !== undefined) chmodSync(part, mode & 0o7777);
    renameSync(part, file);
    return true;
  } catch (err) {
    rmSync(part, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'EACCES' || (err as NodeJS.ErrnoException).code === 'EPERM')
      return false;
    throw err;
  }
}

export function exportCommand(program: Command, io: Io): void {
  dbOption(
    program
      .command('export')
      .description(
        'Write a desk out as a business file (YAML, or JSON with --json) that `desk import` reads back; no secrets, no keys',
      )
      .addOption(neededOption('--desk <desk>', 'desk id or slug'))
      .argument('[file]', 'where to write it (default: print it); a name ending in .json gets JSON')
      .option('--json', 'write the business file as JSON; with FILE, print what was written as JSON too')
      .addHelpText(
        'after',
        '\nConnection passwords and other secrets are left out (a comment at the top of the file names them),\nand API keys are never part of the file. Dates are written as they stand today.\nJSON has no comments: written to FILE, the secrets left out are named on the terminal instead.\n`desk import` reads a file named .json as JSON, strictly, and far faster than YAML.\n\nExample:\n  desk export --desk corner-bakery corner-bakery.yaml\n  desk import corner-bakery.yaml --slug corner-bakery-copy\n  desk export --desk corner-bakery --json > corner-bakery.json',
      ),
  ).action(async (file: string | undefined, opts: DbOptions & { desk: string; json?: boolean }) => {
    const toFile = file !== undefined && file !== '-';
    // A file named .json must hold JSON: that is how `desk import` will read it.
    const format = opts.json || (toFile && /\.json$/i.test(file)) ? 'json' : 'yaml';
    const { exportDesk } = await import('../../domain/business/export.ts');
    await withDeps(io, opts, async (deps) => {
      if (toFile) notTheStore(file, deps.config.database);
      const ctx = await ownerContext(deps, opts.desk);
      const { secretsLeftOut } = await exportDesk(ctx, format, (text) =>
        toFile ? writeWhole(file, text) : io.written ? io.written(text) : io.out(text),
      );
      if (!toFile) return;
      const data = { desk: ctx.desk.slug, file, format, secrets_left_out: secretsLeftOut };
      print(io, opts.json, data, () =>
        format === 'json' && secretsLeftOut.length > 0
          ? `Wrote the business file of ${ctx.desk.slug} to ${file}, as JSON. Secrets were left out: ${secretsLeftOut.join('; ')}. Enter them again on the desk after importing.`
          : `Wrote the business file of ${ctx.desk.slug} to ${file}${format === 'json' ? ', as JSON' : ''}.`,
      );
    });
  });
}
