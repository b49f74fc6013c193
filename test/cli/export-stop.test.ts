import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_NOW } from '../helpers/app.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeWorkMany } from '../helpers/factories.ts';

// Ctrl-C while `desk export FILE` writes: the stop is heard once the write is done, so neither
// the trial copy nor a part-made file is left beside the file (P-cli-9).

let store: TestStore;
let dir: string;
let slug: string;

beforeAll(async () => {
  store = await sqliteStore();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-export-stop-'));
  const { desk } = await makeDesk(store.db, { name: 'Big Bakery' });
  slug = desk.slug;
  // Large enough that writing the file takes long enough to be stopped in.
  await makeWorkMany(
    store.db,
    desk.id,
    Array.from({ length: 60_000 }, (_, i) => ({ title: `Check the oven ${i} ${'x'.repeat(100)}` })),
  );
}, 120_000);
afterAll(async () => {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a stop while the file is written leaves no part-made file, and says what was written', async () => {
  const file = path.join(dir, 'big.yaml');
  const child = spawn(process.execPath, ['bin/desk.js', 'export', '--desk', slug, file], {
    env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW },
  });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let exited = false;
  void ended.then(() => (exited = true));
  // Stopped as soon as the trial copy is there, in the middle of the write.
  while (!exited && !fs.readdirSync(dir).some((f) => f.endsWith('.part'))) await new Promise((r) => setImmediate(r));
  expect(exited, 'the export ended before it could be stopped mid-write').toBe(false);
  child.kill('SIGINT');
  expect(await ended).toEqual({ code: 130, signal: null });
  expect(fs.readdirSync(dir).filter((f) => f !== 'big.yaml')).toEqual([]);
  // A desk this large says what it is waiting on first (P-cli-20).
  expect(err).toMatch(
    /^Reading the desk .*\nRead 60,000 work items and 0 messages; writing them as YAML…\nStopped: (nothing was written; .* is as it was|.* had been written whole)\.\n$/,
  );
  // What is there is the whole file, or nothing.
  if (fs.existsSync(file)) expect(fs.readFileSync(file, 'utf8')).toContain('Check the oven 59999');
}, 60_000);
