import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { desk } from '../helpers/cli.ts';
import { PG_URL } from '../helpers/db.ts';

// A database the command cannot use is one line saying which and why, exit 1, and nothing
// made on the way.

/** `desk desks create` on the database at `file`: a desk named and slugged as given, in GBP. */
const makeDeskAt = (file: string, name: string, slug: string, timezone = 'Europe/London') =>
  desk(file, 'desks', 'create', name, '--slug', slug, '--timezone', timezone, '--currency', 'GBP');

/** The database at `file` as an earlier version left it: without change 017's columns or its record. */
function asBeforeChange017(file: string): void {
  const raw = new SQLite(file);
  raw.exec('alter table connections drop column send_fault_at; alter table connections drop column send_fault');
  raw.prepare("delete from desk_migrations where name = '017_send_fault'").run();
  raw.close();
}

/** `desk desks list` on a database, as root or as nobody (uid 65534), who may write only what is theirs. */
function listDesks(file: string, { asNobody }: { asNobody: boolean }): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/desk.js', 'desks', 'list', '--db', file], {
      ...(asNobody ? { uid: 65534, gid: 65534 } : {}),
      env: { ...process.env, DESK_SECRET_KEY: '' },
    });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => resolve({ code, err }));
  });
}

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

  it("another program's SQLite database is refused by every command and left as it was; an empty file only where one may be made", async () => {
    const theirs = path.join(dir, 'theirs.db');
    const other = new SQLite(theirs);
    other.exec('create table foo (x)');
    other.close();
    const before = fs.readFileSync(theirs);
    for (const args of [['desks', 'list'], ['demo']]) {
      const run = await desk(theirs, ...args);
      expect(run.code).toBe(1);
      expect(run.err).toBe(
        `desk: ${theirs} is a SQLite database, but not Desk's (it holds other tables), so nothing was written to it; give the path of a Desk database, or a new one.\n`,
      );
    }
    expect(fs.readFileSync(theirs).equals(before)).toBe(true);
    expect(fs.existsSync(`${theirs}.key`)).toBe(false);
    // An empty file: no database to read, and one to make.
    const empty = path.join(dir, 'empty.db');
    fs.writeFileSync(empty, '');
    const read = await desk(empty, 'desks', 'list');
    expect(read.code).toBe(1);
    expect(read.err).toMatch(/^desk: No database at /);
    expect(fs.statSync(empty).size).toBe(0);
    expect((await desk(empty, 'demo')).code).toBe(0);
  });

  it('a database written file:PATH, as desk serve prints it back, is the file at PATH to every command', async () => {
    const file = path.join(dir, 'prefixed.db');
    expect((await makeDeskAt(file, 'Prefixed', 'prefixed')).code).toBe(0);
    const listed = await desk(`file:${file}`, 'desks', 'list', '--json');
    expect(listed.err).toBe('');
    expect(JSON.parse(listed.out).map((d: { slug: string }) => d.slug)).toContain('prefixed');
    const gone = path.join(dir, 'not-there.db');
    expect((await desk(`file:${gone}`, 'desks', 'list')).err).toMatch(/^desk: No database at /);
    expect(fs.existsSync(gone)).toBe(false);
  });

  it('a file:/// URL that names no file is refused by a command that only reads, and nothing is made for it', async () => {
    const gone = path.join(dir, 'not-made', 'sub', 'x.db');
    const run = await desk(`file://${gone}`, 'desks', 'list');
    expect(run.err).toMatch(/^desk: No database at /);
    expect(fs.existsSync(path.join(dir, 'not-made'))).toBe(false);
  });

  it('--db is read without the spaces around it, as DESK_DATABASE_URL is; a URL in it makes no folder nor shows its password', async () => {
    const file = path.join(dir, 'spaced.db');
    expect((await makeDeskAt(file, 'Spaced', 'spaced')).code).toBe(0);
    const listed = await desk(path.join(dir, 'elsewhere.db'), 'desks', 'list', '--json', '--db', ` ${file}\n`);
    expect(listed.err).toBe('');
    expect(JSON.parse(listed.out).map((d: { slug: string }) => d.slug)).toEqual(['spaced']);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const url = ' postgres://desk:S3cretPw@127.0.0.1:1/shop';
      const refused = await desk(file, 'demo', '--db', url);
      expect(refused.code).toBe(1);
      expect(refused.err).not.toContain('S3cretPw');
      expect(refused.err).toMatch(/PostgreSQL/);
      expect(fs.readdirSync(dir).filter((n) => n.includes('postgres'))).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('a PostgreSQL URL that cannot be read says how to write its password, and shows none of it', async () => {
    for (const url of ['postgres://shop:p@ss:w/rd?#%@127.0.0.1:5432/desk', 'postgres://shop@127.0.0.1:99999/desk']) {
      const run = await desk(url, 'desks', 'list');
      expect(run.code).toBe(1);
      expect(run.err).toMatch(
        /: it is not a URL that can be read\. A user or password holding @ : \/ \? # or % gives each percent-encoded \(@ as %40/,
      );
      expect(run.err).not.toContain('w/rd');
    }
  });

  it(':memory:, gone when the command ends, is refused by every command, before anything is done or printed', async () => {
    for (const args of [
      ['desks', 'list'],
      ['demo'],
      ['import', 'examples/demo.yaml'],
      ['desks', 'create', 'Gone', '--slug', 'gone', '--timezone', 'UTC', '--currency', 'GBP'],
    ]) {
      const run = await desk(':memory:', ...args);
      expect({ code: run.code, out: run.out, err: run.err }, args.join(' ')).toEqual({
        code: 1,
        out: '',
        err: 'desk: :memory: is a database that is gone when this command ends, with all it did; name a database file or a postgres:// URL.\n',
      });
    }
  });

  it('a database this user may read but not write is named as such before anything is tried', async () => {
    const file = path.join(dir, 'shared.db');
    expect((await desk(file, 'demo')).code).toBe(0);
    // Held open elsewhere, its log files stand writable beside it: it opens and reads, and only
    // a write would fail.
    const held = new SQLite(file);
    held.prepare('select count(*) from desks').get();
    for (const f of [`${file}-wal`, `${file}-shm`]) fs.chmodSync(f, 0o666);
    fs.chmodSync(file, 0o444);
    try {
      // As a user other than root, who may write anything.
      const asRoot = process.getuid?.() === 0;
      if (asRoot) fs.chmodSync(dir, 0o755);
      const run = await listDesks(file, { asNobody: asRoot });
      expect(run.code).toBe(1);
      expect(run.err).toBe(
        `desk: Cannot use ${file} as the database (the file cannot be read and written by this user; SQLite needs both, even to read).\n`,
      );
    } finally {
      held.close();
      fs.chmodSync(file, 0o600);
    }
  });

  it.runIf(process.getuid?.() === 0)(
    'a database refused as not writable is left as it was, with no log files beside it, and opens once it is',
    async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-readonly-'));
      fs.chmodSync(folder, 0o755);
      const file = path.join(folder, 'a.db');
      const asNobody = () => listDesks(file, { asNobody: true });
      try {
        expect((await desk(file, 'demo')).code).toBe(0);
        for (const f of [folder, file, `${file}.key`]) fs.chownSync(f, 65534, 65534);
        fs.chmodSync(file, 0o400);
        const refused = await asNobody();
        expect(refused.code).toBe(1);
        expect(refused.err).toContain('the file cannot be read and written by this user');
        expect(fs.readdirSync(folder).sort()).toEqual(['a.db', 'a.db.key']);
        fs.chmodSync(file, 0o600);
        const opened = await asNobody();
        expect(opened, opened.err).toMatchObject({ code: 0 });
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it.runIf(process.getuid?.() === 0)(
    "a database whose log files stand writable beside it opens, though its folder is not this user's to write",
    async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-theirs-'));
      fs.chmodSync(folder, 0o755);
      const file = path.join(folder, 'a.db');
      try {
        expect((await desk(file, 'demo')).code).toBe(0);
        const held = new SQLite(file);
        held.prepare('select count(*) from desks').get();
        for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}.key`]) fs.chownSync(f, 65534, 65534);
        try {
          const run = await listDesks(file, { asNobody: true });
          expect(run, run.err).toMatchObject({ code: 0 });
        } finally {
          held.close();
        }
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it('a folder given as the database is named as a folder', async () => {
    const run = await desk(dir, 'desks', 'list');
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `desk: Cannot open ${dir} as a SQLite database: unable to open database file (it is a folder; give the path of the database file in it).\n`,
    );
  });

  it('a folder that cannot be made is an error, not a wait', async () => {
    const run = await desk('/proc/no-such-folder/desk.db', 'demo');
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^desk: Cannot make the folder \/proc\/no-such-folder for the database: /);
  });

  it('a database a later version of Desk wrote is named as such, and left as it was', async () => {
    const file = path.join(dir, 'later.db');
    expect((await makeDeskAt(file, 'Later Shop', 'later-shop')).code).toBe(0);
    const raw = new SQLite(file);
    raw.prepare("insert into desk_migrations (name, timestamp) values ('999_from_later', '2030-01-01')").run();
    raw.close();
    const before = fs.readFileSync(file);
    for (const args of [['desks', 'list'], ['demo']]) {
      const run = await desk(file, ...args);
      expect(run.code).toBe(1);
      expect(run.err).toBe(
        `desk: The database at ${file} was written by a later version of Desk (its change 999_from_later is not known to this one); use that version, or a later one, to open it. Nothing was changed.\n`,
      );
    }
    expect((await desk(file, 'desks', 'list', '--json')).json().error.code).toBe('bad_request');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('a new database is made readable by its user alone, as its key file is', async () => {
    const file = path.join(dir, 'private', 'desk.db');
    const made = await makeDeskAt(file, 'Private Shop', 'private-shop', 'UTC');
    expect(made.code).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${file}.key`).mode & 0o777).toBe(0o600);
  });

  it('a database an earlier version of Desk wrote is upgraded, and the command says so once', async () => {
    const file = path.join(dir, 'earlier.db');
    const made = await makeDeskAt(file, 'Earlier Shop', 'earlier-shop');
    expect(made.code).toBe(0);
    // A new database's key file is said once, as what to back up beside it.
    expect(made.err).toBe(
      `Made the key file ${file}.key, which seals the passwords of the desk's connections: back it up apart from the database; without it they cannot be read.\n`,
    );
    asBeforeChange017(file);
    const first = await desk(file, 'desks', 'list');
    expect(first.code).toBe(0);
    expect(first.err).toBe(
      `Upgrading the database at ${file} to this version of Desk (1 change); on a large database this takes a while.\nUpgraded the database at ${file} to this version of Desk (change 017_send_fault); earlier versions will not open it now.\n`,
    );
    expect(first.out).toContain('earlier-shop');
    const again = await desk(file, 'desks', 'list');
    expect(again.code).toBe(0);
    expect(again.err).toBe('');
  });

  it('processes upgrading one database at once: one says it upgraded it, the others that it was done meanwhile', async () => {
    const file = path.join(dir, 'earlier-together.db');
    expect((await makeDeskAt(file, 'Together Shop', 'together-shop')).code).toBe(0);
    asBeforeChange017(file);
    const runs = await Promise.all([1, 2, 3, 4].map(() => desk(file, 'desks', 'list')));
    const upgrading = `Upgrading the database at ${file} to this version of Desk (1 change); on a large database this takes a while.\n`;
    const did = `${upgrading}Upgraded the database at ${file} to this version of Desk (change 017_send_fault); earlier versions will not open it now.\n`;
    const meanwhile = `${upgrading}Another process upgraded the database at ${file} meanwhile; it is up to date with this version of Desk.\n`;
    for (const r of runs) {
      expect(r.code, r.err).toBe(0);
      expect([did, meanwhile, '']).toContain(r.err);
    }
    expect(runs.filter((r) => r.err === did)).toHaveLength(1);
  });

  it('says the database was upgraded with --json too, on standard error, leaving the JSON whole', async () => {
    const file = path.join(dir, 'earlier-json.db');
    expect((await makeDeskAt(file, 'Scripted Shop', 'scripted-shop')).code).toBe(0);
    asBeforeChange017(file);
    const run = await desk(file, 'desks', 'list', '--json');
    expect(run.code).toBe(0);
    expect(run.err).toBe(
      `Upgrading the database at ${file} to this version of Desk (1 change); on a large database this takes a while.\nUpgraded the database at ${file} to this version of Desk (change 017_send_fault); earlier versions will not open it now.\n`,
    );
    expect(run.json().map((d: { slug: string }) => d.slug)).toEqual(['scripted-shop']);
  });

  it('reads a database another process is writing to, and says it is busy when a write must wait too long', async () => {
    const file = path.join(dir, 'busy.db');
    expect((await makeDeskAt(file, 'Busy Shop', 'busy-shop')).code).toBe(0);
    const holder = new SQLite(file);
    holder.exec('begin immediate');
    try {
      // Opening and listing need no write, so a long import elsewhere does not hold them up.
      const list = await desk(file, 'desks', 'list', '--json');
      expect(list.code).toBe(0);
      expect(list.json().map((d: { slug: string }) => d.slug)).toEqual(['busy-shop']);
      const write = await makeDeskAt(file, 'Second Shop', 'second-shop');
      expect(write.code).toBe(1);
      expect(write.err).toBe("desk: The database is busy with another process's write; try again in a moment.\n");
    } finally {
      holder.exec('rollback');
      holder.close();
    }
  }, 20_000);

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

describe.runIf(PG_URL)('an empty PostgreSQL database', () => {
  const name = `desk_empty_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let url: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL! });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(PG_URL!);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL! });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('is refused by a command that only reads, which makes no tables there; --json says bad_request', async () => {
    const run = await desk(url, 'desks', 'list');
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `desk: No database at ${url} (DESK_DATABASE_URL or --db). Start the server, or run desk demo or desk import, to make one.\n`,
    );
    expect((await desk(url, 'desks', 'list', '--json')).json().error.code).toBe('bad_request');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const tables = await c.query(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    await c.end();
    expect(tables.rows[0].n).toBe(0);
  });

  it('is made into a desk database by desk demo', async () => {
    const run = await desk(url, 'demo', '--json');
    expect(run.code).toBe(0);
    expect((await desk(url, 'desks', 'list')).code).toBe(0);
  });
});

describe('the --json envelope of a database or setting that cannot be used', () => {
  it('is unavailable for a server that does not answer, and bad_request for a setting to fix', async () => {
    const down = await desk('postgres://postgres@127.0.0.1:1/desk', 'desks', 'list', '--json');
    expect(down.json().error.code).toBe('unavailable');
    const scheme = await desk('mysql://shop@db/desk', 'desks', 'list', '--json');
    expect(scheme.json().error).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/^The database must be/),
    });
  });
});
