import { Command, CommanderError, Help } from 'commander';
import { DeskError } from '../domain/errors.ts';
import { forTerminal, inline, Interrupted, Listed, processIo, Reported, UsageError, type Io } from './io.ts';
import { checkBeforeActions, isNeeded, pathOf, refuseFlagsAsValues } from './checks.ts';
import { ConfigError } from '../config.ts';
import { SecretKeyError } from '../store/cipher.ts';
import { StoreUnusable } from '../store/location.ts';
import { storeTrouble } from '../store/trouble.ts';
import { serveCommand } from './commands/serve.ts';
import { importCommands } from './commands/import.ts';
import { exportCommand } from './commands/export.ts';
import { deskCommands } from './commands/desks.ts';
import { keyCommands } from './commands/keys.ts';
import { grantCommands } from './commands/grants.ts';
import { workCommands } from './commands/work.ts';
import { workVerbCommands } from './commands/work-verbs.ts';
import { workPassCommand } from './commands/work-pass.ts';
import { runCommand } from './commands/run.ts';
import { watchCommands } from './commands/watches.ts';
import { mailCommands } from './commands/mail.ts';
import { ownerCommands } from './commands/owner.ts';
import { secretsCommands } from './commands/secrets.ts';
import { asksVersion, deskVersion, versionWith } from './version.ts';

// The owner's door: `desk <command>`. Each command is a thin call into the domain; an error
// prints one line per fault and exits 1 (with --json, the API's error envelope on stdout).
// Every command is declared on each start, so the command modules load their verbs and the
// store inside their actions: `desk --help` then reads no more than commander and the help text.
// An action loads its verbs before it opens the store, since a DESK_NOW clock starts when the
// store opens and time spent loading would otherwise show in what the command dates.

const SHARED_FLAGS = ['--db', '--json', '--help'];

export function buildProgram(io: Io, argv: () => readonly string[] = () => []): Command {
  const program = new Command('desk')
    .description(
      "Desk holds a small business's running obligations, works out what each needs next and does the work it is allowed to do.",
    )
    .version(deskVersion(), '-V, --version', 'print the version of Desk')
    .configureOutput({
      writeOut: (s) => io.out(s),
      // A value commander repeats back (an unknown flag, a bad choice) is the caller's text (P-cli-11).
      writeErr: (s) => io.err(forTerminal(s)),
      outputError: (s, write) => write(`desk: ${forTerminal(s.trim().replace(/^error: /, ''))}\n`),
    })
    .exitOverride()
    // Every command made from here on inherits this: a flag it cannot run without says so.
    .configureHelp({
      // A command's own flags first, then the ones every command shares.
      visibleOptions: (cmd) => {
        const all = new Help().visibleOptions(cmd);
        const shared = all.filter((o) => SHARED_FLAGS.includes(o.long ?? ''));
        return [...all.filter((o) => !shared.includes(o)), ...shared];
      },
      optionDescription: (option) => {
        const said = new Help().optionDescription(option);
        return isNeeded(option) ? `${said} (required)` : said;
      },
    })
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      '\nEach command has its own --help. Commands that print data take --json.\nThe database is DESK_DATABASE_URL or --db (a SQLite file path or a postgres:// URL), default ./data/desk.db.',
    );
  checkBeforeActions(program, argv);
  serveCommand(program, io);
  importCommands(program, io);
  exportCommand(program, io);
  deskCommands(program, io);
  keyCommands(program, io);
  grantCommands(program, io);
  const work = workCommands(program, io);
  workVerbCommands(work, io);
  workPassCommand(work, io);
  runCommand(program, io);
  watchCommands(program, io);
  mailCommands(program, io);
  ownerCommands(program, io);
  secretsCommands(program, io);
  refuseFlagsAsValues(program);
  return program;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  // What follows `--` is values, never flags: `desks create -- --json` names a desk "--json".
  const typed = argv.slice(2);
  const flags = typed.includes('--') ? typed.slice(0, typed.indexOf('--')) : typed;
  // With --json, failures too are printed for programs: the API's error envelope, on stdout.
  const json = flags.includes('--json');
  if (json && asksVersion(flags)) {
    io.out(JSON.stringify({ version: deskVersion() }, null, 2));
    return 0;
  }
  // commander prints the version on seeing the flag, whatever else was typed beside it.
  const beside = versionWith(flags);
  if (beside.length > 0) {
    io.err(`desk: --version takes nothing but --json; "${beside.join(' ')}" was given with it.`);
    return 1;
  }
  const program = buildProgram(json ? { ...io, err: () => {}, notice: io.err } : io, () => argv);
  argv = [...argv.slice(0, 2), ...helpAsFlag(program, argv.slice(2))];
  let failure: { code: string; message: string; details?: Record<string, unknown> };
  let listed = false;
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has already said why (or printed help or the version, exit 0). A group named
      // with no command under it (bare `desk`, `desk work`) is a mistake, as commander has it:
      // its help goes to stderr and the exit is 1 (P-cli-6).
      const offer = err.code === 'commander.unknownCommand' ? commandsOffered(program, argv.slice(2), err) : null;
      if (!json) {
        if (offer) io.err(offer);
        return err.exitCode;
      }
      if (err.exitCode === 0) return 0;
      failure = {
        code: 'bad_request',
        // One line, as every other refusal: commander puts its suggestion on a line of its own.
        message: [err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '), offer].filter(Boolean).join('. '),
      };
    } else if (err instanceof Interrupted) {
      return 130; // stopped by Ctrl-C, after saying what became of the work under way
    } else if (err instanceof Reported) {
      return 1; // already printed in full, as data or as lines
    } else if (err instanceof DeskError) {
      failure = { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
      listed = err instanceof Listed;
    } else if (err instanceof UsageError) {
      failure = {
        code: 'bad_request',
        message: err.message,
        ...(err.faults.length > 1 ? { details: { errors: err.faults } } : {}),
      };
    } else if (err instanceof ConfigError || err instanceof SecretKeyError) {
      failure = { code: 'bad_request', message: err.message };
    } else if (err instanceof StoreUnusable) {
      // A server that does not answer may answer later; a wrong path or URL will not.
      failure = { code: err.unreachable ? 'unavailable' : 'bad_request', message: err.message };
    } else {
      // Another process's write lock, a full disk, a database gone: said as the API says it.
      const trouble = storeTrouble(err);
      const message = err instanceof Error ? err.message : String(err);
      failure = trouble
        ? // A read-only file is a setting to fix; the others pass.
          { code: trouble.kind === 'readonly' ? 'bad_request' : 'unavailable', message: trouble.message }
        : { code: 'internal_error', message: message.split('\n')[0]! };
    }
  }
  if (json) io.out(JSON.stringify({ error: failure }));
  else {
    // Several mistakes (a business file's, a row's fields, a command's flags): the summary, then one line each, so
    // all of them can be fixed at once. A Listed error is laid out so with only one.
    const list = failure.details?.errors;
    // Each on one line, with any value it repeats from a file or a flag written out (P-cli-11).
    const lines =
      Array.isArray(list) && list.length > (listed ? 0 : 1) ? list.map((l) => `  ${inline(String(l))}`) : [];
    // Such a message opens with its summary sentence; the list stands in for the rest.
    io.err(`desk: ${forTerminal(lines.length ? `${failure.message.split(/\.(?:\s|$)/)[0]}:` : failure.message)}`);
    for (const line of lines) io.err(line);
  }
  return 1;
}

/**
 * `help` typed before the command words (`desk help work list`, `desk work help list`) asks for
 * those words' own help: commander would read only the first of them, and for a word no group
 * has (`desk work help bogus`) print the group's help as a failure without saying why. Words that
 * name commands become `… --help`; otherwise `help` is dropped, so the unknown word is refused
 * as it is when typed without it, with the command it was likely meant to be.
 */
function helpAsFlag(program: Command, args: string[]): string[] {
  let group = program;
  for (const [i, word] of args.entries()) {
    if (word === '--' || word.startsWith('-')) return args;
    if (word === 'help') {
      const rest = args.slice(i + 1);
      // The command words are those before any flag: a flag's value (`--db x`) names no command.
      const flag = rest.findIndex((w) => w.startsWith('-'));
      const words = flag < 0 ? rest : rest.slice(0, flag);
      if (words.length === 0) return args;
      let target = group;
      for (const w of words) {
        const next = target.commands.find((c) => c.name() === w || c.aliases().includes(w));
        if (!next) return [...args.slice(0, i), ...rest];
        target = next;
      }
      return [...args.slice(0, i), ...words, '--help'];
    }
    const next = group.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return args;
    group = next;
  }
  return args;
}

/**
 * A command no group has, with nothing close enough for commander to suggest (`desk grants
 * add`): the group's own commands, so the next try can be the right one.
 */
function commandsOffered(program: Command, args: string[], err: CommanderError): string | null {
  if (/Did you mean/.test(err.message)) return null;
  let group = program;
  for (const word of args) {
    if (word.startsWith('-')) continue;
    const next = group.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    group = next;
  }
  const names = group.commands.map((c) => c.name()).filter((n) => n !== 'help');
  if (names.length === 0) return null;
  const path = `desk${group.parent ? ` ${pathOf(group)}` : ''}`;
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  return `The commands of \`${path}\` are ${listed}; \`${path} --help\` says what each does.`;
}
