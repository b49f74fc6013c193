import { spawn } from 'node:child_process';
import path from 'node:path';
import { secretKeyEnv } from './db.ts';

// Passes raced for real: `count` processes of test/app/pass-child.ts each open the database,
// say "ready", and start their pass together on "go". Resolves with each one's answer.

const CHILD = path.join(import.meta.dirname, '..', 'app', 'pass-child.ts');
const ROOT = path.join(import.meta.dirname, '..', '..');

export type PassKind = 'watch' | 'work' | 'mail';

export async function racePasses<T>(
  kind: PassKind,
  target: string,
  now: string,
  opts: { desk?: string; count?: number } = {},
): Promise<T[]> {
  const started = Array.from({ length: opts.count ?? 2 }, () => {
    const args = [CHILD, kind, target, now, ...(opts.desk ? [opts.desk] : [])];
    const p = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...secretKeyEnv(target) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let onReady!: () => void;
    const ready = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      p.on('exit', (code) => reject(new Error(`child exited ${code} before it was ready: ${err}`)));
    });
    p.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('ready\n')) onReady();
    });
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const result = new Promise<T>((resolve, reject) => {
      p.on('error', reject);
      p.on('close', (code) => {
        const line = out.split('\n').find((l) => l.startsWith('result '));
        if (code === 0 && line) resolve(JSON.parse(line.slice('result '.length)) as T);
        else reject(new Error(`child exited ${code}: ${err}`));
      });
    });
    return { p, ready, result };
  });
  await Promise.all(started.map((s) => s.ready));
  for (const s of started) s.p.stdin.write('go\n');
  return Promise.all(started.map((s) => s.result));
}
