import { randomBytes } from 'node:crypto';
import { fstatSync, lstatSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { isPostgresUrl, sqliteFile } from '../../store/location.ts';
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

/** Whether FILE is where standard output already goes (`/dev/stdout`, `/dev/fd/1`): printed there, as without FILE. */
function isStandardOutput(file: string): boolean {
  try {
    const [a, b] = [statSync(file), fstatSync(1)];
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** Refuses to write the business file over the SQLite database it is read from, or its files. */
function notTheStore(file: string, database: string): void {
  if (isPostgresUrl(database)) return;
  const db = sqliteFile(database);
  const own = [db, `${db}-wal`, `${db}-shm`, `${db}-journal`, keyFileFor(db)];
  if (own.some((f) => sameFile(file, f)))
    throw new UsageError(
      `${file} is the database the desk is read from (or one of its files), so nothing was written; name another file.`,
    );
}

/**
 * Writes FILE as a shell's `>` would (through a link, keeping the file's owner, group, mode and
 * other names), but first makes sure the whole of it fits: a trial copy is written beside it and
 * removed, so a disk without room says so while the earlier file is still as it was, rather
 * than leaving a cut-off file that reads as a smaller desk. A new file a write leaves part-made
 * is removed. Where no trial copy can be made (a folder that takes no new file), it goes ahead.
 */
function writeWhole(file: string, text: string): void {
  // A name ending in a slash names a folder: said as that, not as a missing parent.
  if (/[\\/]$/.test(file)) throw new UsageError(`Cannot write ${file}: a name ending in / is a folder's.`);
  let existed = true;
  try {
    const was = statSync(file, { throwIfNoEntry: false });
    if (was?.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    existed = lstatSync(file, { throwIfNoEntry: false }) !== undefined;
    if (!was || was.isFile()) fits(file, text);
    writeFileSync(file, text, 'utf8');
  } catch (err) {
    if (!existed) rmSync(file, { force: true });
    throw fileFault(file, err, 'write');
  }
}

/** Throws when the folder has no room for `text`; does nothing where it cannot make a trial copy. */
function fits(file: string, text: string): void {
  const trial = path.join(path.dirname(file), `.desk-export-${randomBytes(6).toString('hex')}.part`);
  try {
    writeFileSync(trial, text, { encoding: 'utf8', flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      rmSync(trial, { force: true });
      throw err;
    }
    return;
  }
  rmSync(trial, { force: true });
}

/** Open rows from which a desk is large enough for the export to say what it is doing. */
export const LARGE_DESK = 10_000;

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
        '\nConnection passwords and other secrets are left out (a comment at the top of the file names them),\nand API keys are never part of the file. Dates are written as they stand today.\nJSON has no comments: written to FILE, the secrets left out are named on the terminal instead.\n`desk import` reads a file named .json as JSON, strictly, and far faster than YAML.\n\nExample (on the demo desk, which `desk demo` or the first `desk serve` makes):\n  desk export --desk demo-bakery demo-bakery.yaml\n  desk import demo-bakery.yaml --slug demo-bakery-copy\n  desk export --desk demo-bakery --json > demo-bakery.json',
      ),
  ).action(async (file: string | undefined, opts: DbOptions & { desk: string; json?: boolean }) => {
    // Opened afresh, standard output's own file would be written from its start, under what
    // the shell had written to it and over by the command's own next line.
    const toFile = file !== undefined && file !== '-' && !isStandardOutput(file);
    // A file named .json must hold JSON: that is how `desk import` will read it.
    const format = opts.json || (toFile && /\.json$/i.test(file)) ? 'json' : 'yaml';
    const { exportDesk } = await import('../../domain/business/export.ts');
    // Ctrl-C stops the export, but never inside a write: the file and its trial copy are written
    // in one stretch, so the stop is heard after it, and nothing part-made is left behind.
    let wrote = false;
    const onSignal = () => {
      io.err(
        toFile && wrote
          ? `Stopped: ${file} had been written whole.`
          : `Stopped: nothing was written${toFile ? `; ${file} is as it was` : ''}.`,
      );
      process.exit(130);
    };
    if (toFile) {
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    }
    try {
      await withDeps(io, opts, async (deps) => {
        if (toFile) notTheStore(file, deps.config.database);
        const ctx = await ownerContext(deps, opts.desk);
        // A large desk takes seconds to read and to write out: said as it goes, on standard error.
        const large = ctx.desk.open_count >= LARGE_DESK;
        const count = (n: number) => n.toLocaleString('en-GB');
        if (large)
          io.err(
            `Reading the desk ${ctx.desk.slug}, ${count(ctx.desk.open_count)} open work items and the rest; a large desk takes a while…`,
          );
        const { secretsLeftOut } = await exportDesk(
          ctx,
          format,
          (text) => {
            if (!toFile) return io.written ? io.written(text) : io.out(text);
            writeWhole(file, text);
            wrote = true;
          },
          ({ work, messages }) => {
            if (large)
              io.err(
                `Read ${count(work)} work items and ${count(messages)} messages; writing them as ${format === 'json' ? 'JSON' : 'YAML'}…`,
              );
          },
        );
        if (!toFile) return;
        const data = { desk: ctx.desk.slug, file, format, secrets_left_out: secretsLeftOut };
        print(io, opts.json, data, () =>
          format === 'json' && secretsLeftOut.length > 0
            ? `Wrote the business file of ${ctx.desk.slug} to ${file}, as JSON. Secrets were left out: ${secretsLeftOut.join('; ')}. Enter them again on the desk after importing.`
            : `Wrote the business file of ${ctx.desk.slug} to ${file}${format === 'json' ? ', as JSON' : ''}.`,
        );
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  });
}
