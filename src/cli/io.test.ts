import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../../test/helpers/db.ts';
import { desk } from '../../test/helpers/cli.ts';
import { table } from './io.ts';
import { TEST_NOW } from '../../test/helpers/app.ts';

// `desk … | head -1`: the reader goes away before the command has said everything. What is
// left unsaid is dropped; the command ends as it would have, with no stack trace.

async function withStdoutClosed(db: string, ...args: string[]): Promise<{ code: number | null; err: string }> {
  const child = spawn(process.execPath, ['bin/desk.js', ...args], {
    env: { ...process.env, DESK_DATABASE_URL: db, DESK_NOW: TEST_NOW },
  });
  child.stdout.destroy();
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, err };
}

/** No control character a terminal would obey: only tabs and line breaks. */
const noControls = (text: string) =>
  [...text].every((c) => {
    const code = c.charCodeAt(0);
    return code === 0x09 || code === 0x0a || (code >= 0x20 && (code < 0x7f || code > 0x9f));
  });

describe('a command whose reader has gone', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await sqliteStore();
    expect((await desk(store.target, 'import', path.resolve('example.yaml'))).code).toBe(0);
  });
  afterAll(async () => {
    await store.close();
  });

  it('ends quietly, with its own exit code, when standard output is closed', async () => {
    expect(await withStdoutClosed(store.target, '--help')).toEqual({ code: 0, err: '' });
    expect(await withStdoutClosed(store.target, 'export', '--desk', 'corner-bakery')).toEqual({ code: 0, err: '' });
    const missing = await withStdoutClosed(store.target, 'export', '--desk', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.err).toBe('desk: No desk "nope". `desk desks list` shows the desks.\n');
  });

  it.skipIf(!existsSync('/dev/full'))(
    'says in one line that standard output could not be written, fails, and logs no export',
    async () => {
      const exported = async () =>
        (await store.db.selectFrom('events').select('id').where('kind', '=', 'desk_exported').execute()).length;
      const before = await exported();
      for (const args of [
        ['export', '--desk', 'corner-bakery'],
        ['export', '--desk', 'corner-bakery', '--json'],
        ['work', 'list', '--desk', 'corner-bakery'],
      ]) {
        const full = openSync('/dev/full', 'w');
        try {
          const child = spawn(process.execPath, ['bin/desk.js', ...args], {
            env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW },
            stdio: ['ignore', full, 'pipe'],
          });
          let err = '';
          child.stderr!.on('data', (c) => (err += c));
          const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
          expect({ code, err }, args.join(' ')).toEqual({
            code: 1,
            err: 'desk: Cannot write to standard output: ENOSPC: no space left on device, write.\n',
          });
        } finally {
          closeSync(full);
        }
      }
      expect(await exported()).toBe(before);
    },
  );

  it('prints the file where standard output goes when FILE is that place, adding to what is there', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'desk-stdout-'));
    const out = path.join(dir, 'out.yaml');
    writeFileSync(out, '# kept\n');
    const fd = openSync(out, 'a');
    try {
      const child = spawn(process.execPath, ['bin/desk.js', 'export', '--desk', 'corner-bakery', '/dev/stdout'], {
        env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW },
        stdio: ['ignore', fd, 'pipe'],
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(text.startsWith('# kept\n# Business file of the desk')).toBe(true);
      expect(text).not.toContain('Wrote the business file');
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says in words why a file cannot be read or written: a folder, a folder that is not there', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'desk-files-'));
    try {
      const folder = await desk(store.target, 'import', dir);
      expect(folder).toMatchObject({ code: 1, out: '' });
      expect(folder.err).toBe(`desk: Cannot read ${dir}: it is a folder, not a file.\n`);
      const into = await desk(store.target, 'export', '--desk', 'corner-bakery', dir);
      expect(into.err).toBe(`desk: Cannot write ${dir}: it is a folder, not a file.\n`);
      const slashed = await desk(store.target, 'export', '--desk', 'corner-bakery', path.join(dir, 'x.yaml/'));
      expect(slashed.err).toBe(`desk: Cannot write ${path.join(dir, 'x.yaml/')}: a name ending in / is a folder's.\n`);
      const nowhere = path.join(dir, 'missing', 'bakery.yaml');
      const lost = await desk(store.target, 'export', '--desk', 'corner-bakery', nowhere);
      expect(lost).toMatchObject({ code: 1, out: '' });
      expect(lost.err).toBe(`desk: Cannot write ${nowhere}: there is no folder ${path.dirname(nowhere)}.\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never lets stored text steer the terminal: control characters are shown, not obeyed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'desk-controls-'));
    const title = 'Pay \u001b[2J\u001b]0;owned\u0007the bill\r\nnow\tplease';
    try {
      const file = path.join(dir, 'controls.json');
      writeFileSync(file, JSON.stringify({ desk: { name: 'Controls', slug: 'controls' }, work: [{ title }] }));
      expect((await desk(store.target, 'import', file)).code).toBe(0);
      const list = await desk(store.target, 'work', 'list', '--desk', 'controls');
      expect(list.code).toBe(0);
      expect(list.out).toSatisfy(noControls);
      const rows = list.out.trimEnd().split('\n');
      expect(rows).toHaveLength(3); // the header, the one row, the count
      expect(rows[1]).toContain('Pay \\u001b[2J\\u001b]0;owned\\u0007the bill\\r\\nnow\\tplease');
      const id = rows[1]!.split(' ')[0]!;
      const shown = await desk(store.target, 'work', 'show', id);
      expect(shown.out).toSatisfy(noControls);
      // JSON carries the text as it is stored.
      expect((await desk(store.target, 'work', 'show', id, '--json')).json().work.title).toBe(title);
      // A title set into a line of what a command says stays on that line, and a mark that
      // turns the text's direction is written out too, with the close the stored title was given.
      const added = await desk(store.target, 'work', 'add', '--desk', 'controls', '--title', 'One\nTwo \u202ecod.exe');
      expect(added.out).toSatisfy(noControls);
      expect(added.out.trimEnd().split('\n')).toHaveLength(2);
      expect(added.out).toContain('One\\nTwo \\u202ecod.exe\\u202c [open]');
      const made = await desk(
        store.target,
        'desks',
        'create',
        'X\u001b[2J\nFAKE',
        '--slug',
        'fake-name',
        '--timezone',
        'UTC',
        '--currency',
        'GBP',
      );
      expect(made.out.split('\n')[0]).toContain(': X\\u001b[2J\\nFAKE, UTC, GBP.');
      // A refusal repeats the value it refuses, from a file or a flag, one line a fault.
      const bad = path.join(dir, 'bad.json');
      const cc = 'a@b.test\r\nBcc: x@y\u001b[2J';
      writeFileSync(
        bad,
        JSON.stringify({ desk: { name: 'Bad', slug: cc }, work: [{ title: 'T', contact_email: cc }] }),
      );
      const refused = await desk(store.target, 'import', bad);
      expect(refused.code).toBe(1);
      expect(refused.err).toSatisfy(noControls);
      expect(refused.err.trimEnd().split('\n')).toEqual([
        'desk: The business file has 2 errors; nothing was written:',
        expect.stringMatching(/^ {2}desk\.slug: "a@b\.test\\r\\nBcc: x@y\\u001b\[2J" /),
        '  work[0] "T".contact_email: "a@b.test\\r\\nBcc: x@y\\u001b[2J" is not an email address',
      ]);
      const flag = await desk(store.target, 'work', 'add', '--desk', 'controls', '--title', 'T', '--contact-email', cc);
      expect(flag.code).toBe(1);
      expect(flag.err).toSatisfy(noControls);
      expect(flag.err.trimEnd().split('\n')).toHaveLength(1);
      const unknown = await desk(store.target, 'work', 'list', `--x\u001b[2J\n`);
      expect(unknown.code).toBe(1);
      expect(unknown.err).toSatisfy(noControls);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a table', () => {
  it('lines its columns up by how wide text shows, a CJK character taking two places', () => {
    const shown = table(
      [
        { slug: 'jp', name: '日本のパン屋', tz: 'Asia/Tokyo' },
        { slug: 'uk', name: 'Corner Bakery', tz: 'Europe/London' },
      ],
      ['slug', 'name', 'tz'],
    ).split('\n');
    expect(shown).toEqual([
      'slug  name           tz',
      'jp    日本のパン屋   Asia/Tokyo',
      'uk    Corner Bakery  Europe/London',
    ]);
  });

  it('takes as many rows as a desk has, 200,000 and more', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: i + 1, title: `Row ${i + 1}` }));
    const shown = table(rows, ['id', 'title']).split('\n');
    expect(shown).toHaveLength(200_001);
    expect(shown[0]).toBe('id      title');
    expect(shown.at(-1)).toBe('200000  Row 200000');
  });
});
