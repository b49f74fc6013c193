import path from 'node:path';
import { type Command, Option } from 'commander';
import stringWidth from 'string-width';
import { loadConfig, type Config } from '../config.ts';
import { deskContext, type DeskContext, type Deps } from '../domain/context.ts';
import { redact } from '../store/location.ts';
import type { DeskRow } from '../store/schema.ts';
import { askOnTerminal, missingDatabase } from './terminal.ts';
import { OWNER } from '../domain/vocab.ts';
import { steersText, writtenOutChar } from '../domain/text.ts';
import { DeskError } from '../domain/errors.ts';

// What every command shares: where output goes, how the store is opened and closed, and how a
// command's data is printed (plain lines for people, or JSON with --json).

export interface Io {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /**
   * What must reach standard error even when `--json` quiets the rest of it: what opening the
   * database did to it (upgraded it, made its key file), which a script's own JSON on stdout
   * would not tell the person who runs it.
   */
  notice?(text: string): void;
  /** Whether a person is at the keyboard (stdin is a terminal), so a command may ask. */
  interactive?: boolean;
  /** Asks a yes/no question; only called when interactive. */
  ask?(question: string): Promise<boolean>;
  /** Writes to standard output and settles once it is written, so a command can tell it failed. */
  written?(text: string): Promise<void>;
}

const gone = new WeakSet<NodeJS.WriteStream>();

/** A reader that has gone away (`desk export | head -1`): not a fault of the command. */
const readerGone = (err: NodeJS.ErrnoException) => err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';

/**
 * Writes a line to a stream of this process. A reader that has gone away is not a fault of the
 * command: what it would have read is dropped, and the command ends as it would have. Any other
 * failure to write (a full disk behind `> file`) is said in one line and fails the command,
 * rather than ending it on an unhandled error with a stack trace.
 */
function lineTo(stream: NodeJS.WriteStream): (text: string) => void {
  return (text) => {
    watch(stream);
    if (gone.has(stream) || stream.destroyed) return;
    stream.write(text.endsWith('\n') ? text : `${text}\n`);
  };
}

const toStderr = lineTo(process.stderr);

const watched = new WeakSet<NodeJS.WriteStream>();
/** Streams whose failure a command has already been told of, to say in its own words. */
const told = new WeakSet<NodeJS.WriteStream>();

function watch(stream: NodeJS.WriteStream): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', (err: NodeJS.ErrnoException) => {
    gone.add(stream);
    if (readerGone(err)) return;
    process.exitCode = 1;
    if (stream !== process.stderr && !told.has(stream) && !gone.has(process.stderr))
      process.stderr.write(`desk: Cannot write to standard output: ${err.message}.\n`);
  });
}

export const processIo: Io = {
  env: process.env,
  out: lineTo(process.stdout),
  written: (text) =>
    new Promise((resolve, reject) => {
      watch(process.stdout);
      if (gone.has(process.stdout) || process.stdout.destroyed) return resolve();
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`, (err) => {
        if (!err || readerGone(err)) return resolve();
        // Said on stderr here: a command printing its refusal as JSON would print it to the
        // very output that failed.
        told.add(process.stdout);
        if (!gone.has(process.stderr)) process.stderr.write(`desk: Cannot write to standard output: ${err.message}.\n`);
        reject(new Reported(`Cannot write to standard output: ${err.message}.`));
      });
    }),
  // What goes to people on standard error may quote stored text (a run's step, a title): its
  // control characters are written out there as in what is printed (P-cli-11).
  err: (text: string) => toStderr(forTerminal(text)),
  interactive: process.stdin.isTTY === true,
  ask: askOnTerminal,
};

export interface DbOptions {
  db?: string;
}

export function dbOption(cmd: Command): Command {
  return cmd.addOption(
    new Option('--db <url>', 'SQLite file path or postgres:// URL (default: DESK_DATABASE_URL or ./data/desk.db)'),
  );
}

export function jsonOption(cmd: Command): Command {
  return cmd.option('--json', 'print the result as JSON');
}

export function configFor(io: Io, opts: DbOptions & Partial<Config>): Readonly<Config> {
  const { db, ...flags } = opts;
  return loadConfig(io.env, { ...flags, ...(db ? { database: db } : {}) });
}

/**
 * Opens the store for one command and always closes it. Only commands that bring data in
 * (`create`) may make a new SQLite file; the others refuse a path where none exists, so a
 * mistyped --db is not a fresh empty database.
 */
export async function withDeps<T>(
  io: Io,
  opts: DbOptions,
  fn: (deps: Deps) => Promise<T>,
  { create = false } = {},
): Promise<T> {
  const config = configFor(io, opts);
  const missing = missingDatabase(config.database, { create });
  if (missing) throw new UsageError(missing);
  // The store and the adapters are loaded when a command first needs them, so `desk --help` does not.
  const { buildDeps } = await import('../container.ts');
  const deps = await buildDeps(config, { existing: !create, say: io.notice ?? io.err });
  try {
    return await fn(deps);
  } finally {
    // A send a run left going past its time limit records whether it went before the store closes.
    const { untilLeftRunningEnds } = await import('../domain/work/in-flight.ts');
    await untilLeftRunningEnds();
    await deps.store.close();
  }
}

/** A command stopped by Ctrl-C (SIGINT) or SIGTERM once it had recorded what was under way: exit 130. */
export class Interrupted extends Error {}

/** How long an interrupted command may take to record its run and close before the process ends anyway. */
export const AFTER_INTERRUPT_MS = 5_000;

/**
 * Runs a command that acts (`desk run`, `desk work pass`) so that Ctrl-C does what a stopping
 * server does (P-cli-10): the run under way is ended as interrupted, its row put back and the
 * run recorded, a pass stops after the act in hand, and then the command ends with 130. A second
 * Ctrl-C, or a send that holds the process past a few seconds, ends it at once, as before.
 */
export async function stoppable<T>(
  io: Io,
  deps: Deps,
  fn: (stopping: AbortSignal) => Promise<T>,
  /** What the person is told at the first Ctrl-C. */
  stoppingSays = 'Stopping: the run under way is recorded as interrupted (Ctrl-C again to stop at once)...',
): Promise<T> {
  const { interruptRuns } = await import('../domain/work/in-flight.ts');
  const stopping = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (stopping.signal.aborted) process.exit(130);
    stopping.abort();
    io.err(stoppingSays);
    interruptRuns(deps.store.db, signal);
    setTimeout(() => process.exit(130), AFTER_INTERRUPT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const result = await fn(stopping.signal);
    if (stopping.signal.aborted) throw new Interrupted();
    return result;
  } catch (err) {
    throw stopping.signal.aborted ? new Interrupted() : err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** withDeps for the commands that bring data in (import, demo): they may make the database. */
export function withNewDeps<T>(io: Io, opts: DbOptions, fn: (deps: Deps) => Promise<T>): Promise<T> {
  return withDeps(io, opts, fn, { create: true });
}

/** The desk the owner named, by id or slug; one that does not exist is refused. */
export async function deskByRef(deps: Deps, deskRef: string): Promise<DeskRow> {
  const { requireDesk } = await import('../domain/desks/manage.ts');
  return requireDesk(deps.store.db, deskRef);
}

/** A desk context for the owner acting from the terminal. */
export async function ownerContext(deps: Deps, deskRef: string): Promise<DeskContext> {
  return deskContext(deps, await deskByRef(deps, deskRef), { type: 'owner', name: OWNER });
}

/** What steers text (`steersText`), but a tab and a line break only where `cell` says so. */
function isControl(code: number, cell: boolean): boolean {
  if (code === 0x09 || code === 0x0a) return cell;
  return steersText(code);
}

/**
 * Stored text as a terminal should show it: its control characters written out (`\u001b`),
 * never obeyed. A title or a mail subject is text from people and from outside, and an escape
 * sequence in it could clear the screen, retitle the window or hide what follows. Lines keep
 * their breaks and tabs; one cell of a table (`cell`) writes those out too, as they would
 * break its columns.
 */
export function forTerminal(text: string, { cell = false } = {}): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out += isControl(code, cell) ? writtenOutChar(c) : c;
  }
  return out;
}

/** Stored text set into a line of what a command prints (a title, a name): kept on that line. */
export const inline = (text: string): string => forTerminal(text, { cell: true });

export function print(io: Io, json: boolean | undefined, data: unknown, human: () => string): void {
  io.out(json ? JSON.stringify(data, null, 2) : forTerminal(human()));
}

export function where(deps: Deps): string {
  return redact(deps.store.location);
}

/** Rows as aligned columns, for people. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) =>
    columns.map((c) => (r[c] === null || r[c] === undefined ? '-' : forTerminal(String(r[c]), { cell: true }))),
  );
  // Columns line up by how wide text shows on a terminal: a CJK character takes two places.
  // Counted row by row: spread into one call, a list of 200,000 rows overflows the stack.
  const widths = columns.map((c, i) => cells.reduce((w, row) => Math.max(w, stringWidth(row[i]!)), c.length));
  const line = (vals: string[]) =>
    vals.map((v, i) => (i === vals.length - 1 ? v : v + ' '.repeat(widths[i]! - stringWidth(v)))).join('  ');
  return [line(columns), ...cells.map(line)].join('\n');
}

/** Why a file named on the command line could not be read or written, in words rather than Node's error codes. */
export function fileFault(file: string, err: unknown, doing: 'read' | 'write'): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'EISDIR'
      ? 'it is a folder, not a file'
      : code === 'ENOENT'
        ? doing === 'read'
          ? 'no such file'
          : `there is no folder ${path.dirname(file)}`
        : code === 'ENOTDIR'
          ? `${path.dirname(file)} is not a folder`
          : code === 'EACCES' || code === 'EPERM'
            ? `permission denied`
            : code === 'ELOOP'
              ? 'its links lead round in a circle'
              : code === 'ENOSPC' || code === 'EDQUOT'
                ? 'there is no room left on its disk'
                : (err as Error).message;
  return new UsageError(`Cannot ${doing} ${file}: ${why}.`);
}

/** A domain error whose `details.errors` is printed as a list under its summary even when it holds only one. */
export class Listed extends DeskError {}

/** An error the command has already printed in full. */
export class Reported extends Error {}

/** Mistakes in how a command was typed: one, or several, each said on a line of its own. */
export class UsageError extends Error {
  readonly faults: string[];
  constructor(...faults: string[]) {
    const n = faults.length;
    const first = faults[0]?.replace(/\.$/, '');
    super(n === 1 ? faults[0] : `The command has ${n} mistakes; nothing was done. ${first} (and ${n - 1} more).`);
    this.faults = faults;
  }
}
