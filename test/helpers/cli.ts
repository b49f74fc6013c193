import { main } from '../../src/cli/main.ts';
import type { Io } from '../../src/cli/io.ts';
import { TEST_NOW } from './app.ts';
import { secretKeyEnv } from './db.ts';

export interface CliRun {
  code: number;
  out: string;
  err: string;
  json: () => any;
}

/**
 * Runs `desk <args>` in this process against the given database, capturing what it prints.
 * Its clock starts at TEST_NOW (DESK_NOW), so what it dates does not hang on the day the test runs.
 */
export async function desk(db: string, ...args: string[]): Promise<CliRun> {
  return deskWith({}, db, ...args);
}

export interface AtTerminal {
  /** Run as if a person were at a terminal, answering each question with `answer`. */
  answer?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Questions asked, in order. */
  asked?: string[];
}

/** `desk` with more of its surroundings given: a person at a terminal, extra environment. */
export async function deskWith(at: AtTerminal, db: string, ...args: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: Io = {
    env: { DESK_DATABASE_URL: db, DESK_NOW: TEST_NOW, ...secretKeyEnv(db), ...at.env },
    out: (t) => (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => (err += t.endsWith('\n') ? t : `${t}\n`),
    interactive: at.answer !== undefined,
    ask: async (q) => {
      at.asked?.push(q);
      return at.answer === true;
    },
  };
  const code = await main(['node', 'desk', ...args], io);
  return { code, out, err, json: () => JSON.parse(out) };
}
