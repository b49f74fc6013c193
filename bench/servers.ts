// What the HTTP benches share: the real server and the bare route each in a process of its own,
// what a process has used, and the idempotent snooze load.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';

/** Node's flags for the server, as `npm start` gives them. */
export const START_FLAGS = (JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start as string)
  .split(/\s+/)
  .filter((w) => w.startsWith('--'));

export interface Child {
  proc: ChildProcess;
  port: number;
}

export function start(argv: string[], env: Record<string, string>, ready: RegExp): Promise<Child> {
  const proc = spawn(process.execPath, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${output}`)), 60_000);
    const check = (chunk: Buffer) => {
      output += chunk;
      const m = ready.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, port: Number(m[1]) });
      }
    };
    proc.stdout!.on('data', check);
    proc.stderr!.on('data', (c) => (output += c));
    proc.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

export function stop(c: Child): Promise<void> {
  return new Promise((resolve) => {
    if (c.proc.exitCode !== null) return resolve();
    c.proc.removeAllListeners('exit');
    c.proc.once('exit', () => resolve());
    c.proc.kill('SIGTERM');
  });
}

/** CPU seconds the process has used so far, every thread of it (the checkpoint thread, the collector's). */
export function cpuSeconds(pid: number): number {
  // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;
/** Longer than the server waits after a write to checkpoint (store/checkpointer.ts) and a checkpoint takes. */
export const CHECKPOINT_SETTLE_MS = 1_000;

export interface Figure {
  rps: number;
  p99: number;
  total: number;
  /** Microseconds of the server's CPU a request, where measured. */
  cpuUs?: number;
}

/** Where the snoozes go: the server's API, a key's header, and the desk's rows (ids first..first+size-1). */
export interface SnoozeTarget {
  base: string;
  auth: Record<string, string>;
  firstRow: number;
  size: number;
}

/** Snoozes of random rows, each with its own Idempotency-Key: a write per request. */
export async function snoozes(t: SnoozeTarget, seconds: number, connections: number): Promise<Figure> {
  const r = await autocannon({
    url: t.base,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { ...t.auth, 'content-type': 'application/json' },
    body: '{"days":1}',
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          path: `/api/v1/work/${t.firstRow + Math.floor(Math.random() * t.size)}/snooze`,
          headers: { ...req.headers, 'idempotency-key': randomUUID() },
        }),
      },
    ],
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`snooze: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99, total: r.requests.total };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
