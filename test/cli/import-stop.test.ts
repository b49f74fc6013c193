import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { TEST_NOW } from '../helpers/app.ts';

// Ctrl-C while `desk import` is still reading its file: the import says that nothing went in,
// exits 130, and leaves no database behind (P-cli-14).

it('a stop while the file is still being read says nothing was imported, and exits 130', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-import-stop-'));
  const db = path.join(dir, 'desk.db');
  try {
    // Standard input left open: the command waits on it, reading, until it is stopped.
    const child = spawn(process.execPath, ['bin/desk.js', 'import', '-', '--db', db], {
      env: { ...process.env, DESK_NOW: TEST_NOW },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    // More than a pipe holds: the write is done only once the command has read most of it, so
    // it is then reading (its stop handler in place), however slowly the machine started it.
    const half = `{"desk": {"name": "Half${'f'.repeat(1 << 20)}`;
    await new Promise<void>((resolve, reject) => child.stdin.write(half, (e) => (e ? reject(e) : resolve())));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    child.kill('SIGINT');
    expect(await ended).toEqual({ code: 130, signal: null });
    expect(err).toBe('Stopped: nothing was imported; a business file goes in whole or not at all.\n');
    expect(fs.existsSync(db)).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
