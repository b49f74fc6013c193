import { Command, CommanderError } from 'commander';
import { DeskError } from '../domain/errors.ts';
import { processIo, Reported, UsageError, type Io } from './io.ts';
import { serveCommand } from './commands/serve.ts';
import { importCommands } from './commands/import.ts';
import { deskCommands } from './commands/desks.ts';
import { keyCommands } from './commands/keys.ts';
import { grantCommands } from './commands/grants.ts';
import { workCommands } from './commands/work.ts';
import { runCommand } from './commands/run.ts';
import { watchCommands } from './commands/watches.ts';
import { ownerCommands } from './commands/owner.ts';

// The owner's door: `desk <command>`. Each command is a thin call into the domain; errors
// print one line and exit 1.

export function buildProgram(io: Io): Command {
  const program = new Command('desk')
    .description('Desk holds a small business\'s running obligations, works out what each needs next and does the work it is allowed to do.')
    .version('0.1.0', '-V, --version')
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      outputError: (s, write) => write(`desk: ${s.trim().replace(/^error: /, '')}\n`),
    })
    .exitOverride()
    .showSuggestionAfterError(true)
    .addHelpText('after', '\nEach command has its own --help. Commands that print data take --json.\nThe database is DESK_DATABASE_URL or --db (a SQLite file path or a postgres:// URL), default ./data/desk.db.');
  serveCommand(program, io);
  importCommands(program, io);
  deskCommands(program, io);
  keyCommands(program, io);
  grantCommands(program, io);
  workCommands(program, io);
  runCommand(program, io);
  watchCommands(program, io);
  ownerCommands(program, io);
  return program;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const program = buildProgram(io);
  if (argv.length <= 2) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode; // commander has already said why
    if (err instanceof Reported) return 1;
    if (err instanceof DeskError || err instanceof UsageError) {
      io.err(`desk: ${err.message}`);
      return 1;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.err(`desk: ${message.split('\n')[0]}`);
    return 1;
  }
}
