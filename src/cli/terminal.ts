import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { noDeskDatabase } from '../store/location.ts';

// What a command needs from the machine it runs on: a yes/no from the person at the terminal,
// and whether the database it was pointed at exists.

export async function askOnTerminal(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** A SQLite path that names no file: the owner mistyped it, or has not started Desk yet. */
export function missingDatabase(database: string): string | null {
  // A URL is for the store to judge: PostgreSQL's, or one it refuses by name.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(database) || database === ':memory:' || existsSync(database)) return null;
  return noDeskDatabase(database);
}
