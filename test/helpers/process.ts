import { spawn, type ChildProcess } from 'node:child_process';
import { TEST_NOW } from './app.ts';
import { secretKeyEnv } from './db.ts';

// A real `desk serve` in its own process, for what only separate processes can show:
// records shared through the database, and answers that survive a restart.

export interface ServerProcess {
  url: string;
  output: () => string;
  /** Sends SIGTERM; resolves with the exit code once the process has ended. */
  stop(): Promise<number | null>;
  /** Ends the process at once, as a power cut or an out-of-memory kill would (SIGKILL). */
  kill(): Promise<void>;
}

export async function startServerProcess(db: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['bin/desk.js', 'serve', '--port', '0', '--db', db], {
    env: { ...process.env, DESK_LOG_LEVEL: 'warn', DESK_NOW: TEST_NOW, ...secretKeyEnv(db), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`desk serve did not start within 60 s:\n${output}`)), 60_000);
    const check = () => {
      const m = /listening on (http:\/\/[^\s/]+)\/api\/v1/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`desk serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** What a server process said, a line each: a JSON log record's message, or a plain line as it is. */
export function saidLines(output: string): string[] {
  return output
    .trimEnd()
    .split('\n')
    .map((line) => {
      try {
        const record = JSON.parse(line) as { msg?: unknown };
        return typeof record.msg === 'string' ? record.msg : line;
      } catch {
        return line;
      }
    });
}
