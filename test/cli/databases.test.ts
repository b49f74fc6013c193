import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desk } from '../helpers/cli.ts';

// A database the command cannot use is one line saying which and why, exit 1, and nothing
// made on the way.

describe('a database a command cannot use', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-dbs-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a URL that is neither postgres:// nor a path is refused, and no file is made for it', async () => {
    for (const url of ['mysql://shop@db/desk', 'sqlite:///tmp/desk.db']) {
      const run = await desk(url, 'demo');
      expect(run.code).toBe(1);
      expect(run.err).toBe(
        `desk: The database must be a SQLite file path (such as ./data/desk.db) or a postgres:// URL, got "${url.replace('shop@', '…@')}".\n`,
      );
    }
    expect(fs.existsSync('mysql:')).toBe(false);
    expect(fs.existsSync('sqlite:')).toBe(false);
  });

  it('a path under a file, or a file that is not a database, is named with what is wrong', async () => {
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'shopping list\n'.repeat(100));
    const under = await desk(path.join(text, 'desk.db'), 'demo');
    expect(under.code).toBe(1);
    expect(under.err).toBe(
      `desk: Cannot make a database at ${path.join(text, 'desk.db')}: ${text} is a file, not a folder.\n`,
    );
    const notDb = await desk(text, 'desks', 'list');
    expect(notDb.code).toBe(1);
    expect(notDb.err).toBe(
      `desk: Cannot open ${text} as a SQLite database: file is not a database (is it a Desk database?).\n`,
    );
  });

  it('a folder that cannot be made is an error, not a wait', async () => {
    const run = await desk('/proc/no-such-folder/desk.db', 'demo');
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^desk: Cannot make the folder \/proc\/no-such-folder for the database: /);
  });

  it('a PostgreSQL server that does not answer is named as such', async () => {
    const url = 'postgres://postgres@127.0.0.1:1/desk';
    const run = await desk(url, 'desks', 'list');
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `desk: Cannot use the PostgreSQL database at ${url}: nothing answers there; is the server running?\n`,
    );
  });
});

describe('a business file with mistakes, imported into a database not yet made', () => {
  it('makes no database: the file is checked before anything is opened', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-noimport-'));
    const file = path.join(dir, 'bad.yaml');
    fs.writeFileSync(file, 'desk: { name: [unclosed');
    const db = path.join(dir, 'new', 'desk.db');
    try {
      const run = await desk(db, 'import', file);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/is not YAML or JSON/);
      expect(fs.existsSync(path.join(dir, 'new'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
