import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { noDeskDatabase, sqliteFile } from '../store/location.ts';

// What a command needs from the machine it runs on: a yes/no from the person at the terminal,
// and whether the database it was pointed at exists.

export async function askOnTerminal(
  question: string,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Promise<boolean> {
  const rl = createInterface({ input, output });
  // Ctrl-D, or the input ending, with no answer is the default: no. On a terminal the question
  // is refused as aborted; from other input it is left unanswered and the reader closes.
  const ended = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
  try {
    const answer = await Promise.race([
      rl.question(`${question} [y/N] `).catch((err: { code?: string }) => {
        if (err.code !== 'ABORT_ERR') throw err;
        return null;
      }),
      ended,
    ]);
    if (answer === null) {
      output.write('\n');
      return false;
    }
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/**
 * A SQLite path that names no file: the owner mistyped it, or has not started Desk yet. Or
 * SQLite's `:memory:`, a database that is gone when the command ends, with what it made and
 * the key or link it printed (`desk serve` keeps it while it serves, and takes it).
 */
export function missingDatabase(database: string, { create = false } = {}): string | null {
  if (sqliteFile(database) === ':memory:')
    return ':memory: is a database that is gone when this command ends, with all it did; name a database file or a postgres:// URL.';
  // A URL is for the store to judge: PostgreSQL's, or one it refuses by name. A file: URL is a path.
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(database) && !/^file:/i.test(database);
  if (create || url || existsSync(sqliteFile(database))) return null;
  return noDeskDatabase(database);
}
