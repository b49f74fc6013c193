import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  rmSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { desk } from '../helpers/cli.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { EVERYTHING, SECRETS } from '../helpers/business-file.ts';
import { makeDesk, makeWorkMany } from '../helpers/factories.ts';
import { LARGE_DESK } from '../../src/cli/commands/export.ts';

/** The file as the tests read it: any shape, as JSON.parse gives. */
const parse = (text: string): any => load(text);

// `desk export --desk SLUG [FILE]`: the business file on stdout or in a file, which
// `desk import --slug` reads back; refused like every command on a database that is not there.

describe.each(DIALECTS)('desk export ($name)', ({ open }) => {
  let store: TestStore;
  const dir = mkdtempSync(path.join(tmpdir(), 'desk-export-'));

  beforeAll(async () => {
    store = await open();
    const source = path.join(dir, 'source.yaml');
    writeFileSync(source, EVERYTHING);
    const r = await desk(store.target, 'import', source);
    expect(r.err).toBe('');
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the file when no FILE is given, with no secret in it', async () => {
    const r = await desk(store.target, 'export', '--desk', 'round-trip');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    for (const s of SECRETS) expect(r.out).not.toContain(s);
    const doc = parse(r.out);
    expect(doc.desk).toEqual({
      name: 'Round Trip Cafe',
      slug: 'round-trip',
      plan: 'standard',
      timezone: 'America/New_York',
      currency: 'USD',
      broker: 'Sedo',
      hours: 'mon-sat 08:00-18:00',
      daily_cap: 7,
      act_within_days: 10,
      paused: true,
    });
    expect(doc.work).toHaveLength(8);
    expect(doc.grants).toEqual(['reach_out', 'file']);
  });

  it('writes FILE, which desk import reads back under another slug into the same file again', async () => {
    const file = path.join(dir, 'out.yaml');
    const w = await desk(store.target, 'export', '--desk', 'round-trip', file);
    expect(w.code).toBe(0);
    expect(w.out).toBe(`Wrote the business file of round-trip to ${file}.\n`);
    const first = readFileSync(file, 'utf8');

    const i = await desk(store.target, 'import', file, '--slug', 'round-trip-2', '--json');
    expect(i.code).toBe(0);
    expect(i.json().desk.slug).toBe('round-trip-2');
    const again = await desk(store.target, 'export', '--desk', 'round-trip-2');
    const body = (t: string) => t.replace(/^#.*\n/gm, '').replace(/^ {2}slug: .*$/m, '');
    expect(body(again.out)).toBe(body(first));
  });

  it('--json writes the same file as JSON, and a FILE named .json gets JSON that desk import reads back', async () => {
    const yaml = parse((await desk(store.target, 'export', '--desk', 'round-trip')).out);
    const printed = await desk(store.target, 'export', '--desk', 'round-trip', '--json');
    expect(printed).toMatchObject({ code: 0, err: '' });
    for (const s of SECRETS) expect(printed.out).not.toContain(s);
    expect(JSON.parse(printed.out)).toEqual(yaml);

    const file = path.join(dir, 'out.json');
    const w = await desk(store.target, 'export', '--desk', 'round-trip', file);
    expect(w.code).toBe(0);
    expect(w.out).toBe(
      `Wrote the business file of round-trip to ${file}, as JSON. Secrets were left out: "Shop mailbox" (pass); "Tax portal" (password); "Bank feed" (api_token, pin, accounts[0].password). Enter them again on the desk after importing.\n`,
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(yaml);
    const i = await desk(store.target, 'import', file, '--slug', 'round-trip-json', '--json');
    expect(i.code, i.err).toBe(0);
    const again = await desk(store.target, 'export', '--desk', 'round-trip-json', '--json');
    expect({ ...JSON.parse(again.out), desk: null }).toEqual({ ...yaml, desk: null });

    const asData = await desk(store.target, 'export', '--desk', 'round-trip', path.join(dir, 'data.json'), '--json');
    expect(asData.json()).toEqual({
      desk: 'round-trip',
      file: path.join(dir, 'data.json'),
      format: 'json',
      secrets_left_out: [
        '"Shop mailbox" (pass)',
        '"Tax portal" (password)',
        '"Bank feed" (api_token, pin, accounts[0].password)',
      ],
    });
  });

  it('refuses an unknown desk, a missing --desk, and a database that is not there', async () => {
    const unknown = await desk(store.target, 'export', '--desk', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No desk "nope"');

    const bare = await desk(store.target, 'export');
    expect(bare.code).not.toBe(0);
    expect(bare.err).toBe('desk: export needs --desk <desk> (desk id or slug).\n');

    const typo = path.join(dir, 'no-such.db');
    const missing = await desk(typo, 'export', '--desk', 'round-trip');
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(
      `desk: No database at ${typo} (DESK_DATABASE_URL or --db). Start the server, or run desk demo or desk import, to make one.\n`,
    );
  });

  it('logs nothing when the file cannot be written', async () => {
    const exported = async () =>
      Number(
        (
          await store.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('kind', '=', 'desk_exported')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await exported();
    for (const target of [path.join(dir, 'no-such-folder', 'x.yaml'), dir]) {
      const r = await desk(store.target, 'export', '--desk', 'round-trip', target);
      expect(r.code, target).toBe(1);
      expect(r.err).toMatch(/^desk: Cannot write /);
    }
    expect(await exported()).toBe(before);
    await desk(store.target, 'export', '--desk', 'round-trip', path.join(dir, 'written.yaml'));
    expect(await exported()).toBe(before + 1);
  });

  it('refuses to write over the database it reads, or its files, and writes a file whole', async () => {
    if (!store.target.startsWith('postgres')) {
      const db = store.target.replace(/^file:/, '');
      const before = readFileSync(db);
      for (const own of [db, `${db}-wal`, `${path.resolve(db)}.key`]) {
        const r = await desk(store.target, 'export', '--desk', 'round-trip', own);
        expect(r.code, own).toBe(1);
        expect(r.err).toBe(
          `desk: ${own} is the database the desk is read from (or one of its files), so nothing was written; name another file.\n`,
        );
      }
      expect(readFileSync(db).subarray(0, 16).toString()).toBe(before.subarray(0, 16).toString());
    }
    // Written beside the file and renamed into place: no part of it is left about.
    const file = path.join(dir, 'whole.yaml');
    writeFileSync(file, 'an earlier file\n');
    expect((await desk(store.target, 'export', '--desk', 'round-trip', file)).code).toBe(0);
    expect(parse(readFileSync(file, 'utf8')).desk.slug).toBe('round-trip');
    expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);
    // A file kept private stays so, and a link is written through to the file it names.
    chmodSync(file, 0o600);
    const link = path.join(dir, 'link.yaml');
    symlinkSync(file, link);
    expect((await desk(store.target, 'export', '--desk', 'round-trip', link)).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A link to a file not made yet makes it; a file with a second name is written under both.
    const dangling = path.join(dir, 'dangling.yaml');
    symlinkSync(path.join(dir, 'made.yaml'), dangling);
    expect((await desk(store.target, 'export', '--desk', 'round-trip', dangling)).code).toBe(0);
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(parse(readFileSync(path.join(dir, 'made.yaml'), 'utf8')).desk.slug).toBe('round-trip');
    const second = path.join(dir, 'second.yaml');
    linkSync(file, second);
    writeFileSync(file, 'an earlier file\n');
    expect((await desk(store.target, 'export', '--desk', 'round-trip', second)).code).toBe(0);
    expect(parse(readFileSync(file, 'utf8')).desk.slug).toBe('round-trip');
  });

  it('says on standard error what a large desk is waiting on, and the file stays whole', async () => {
    const { desk: large } = await makeDesk(store.db, { slug: 'large-export', name: 'Large Export' });
    await makeWorkMany(
      store.db,
      large.id,
      Array.from({ length: LARGE_DESK }, (_, i) => ({ title: `Row ${i}` })),
    );
    const file = path.join(dir, 'large.json');
    const r = await desk(store.target, 'export', '--desk', 'large-export', file);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      'Reading the desk large-export, 10,000 open work items and the rest; a large desk takes a while…\n' +
        'Read 10,000 work items and 0 messages; writing them as JSON…\n',
    );
    expect(JSON.parse(readFileSync(file, 'utf8')).work).toHaveLength(LARGE_DESK);
    // A desk under the line says nothing while it works.
    expect((await desk(store.target, 'export', '--desk', 'round-trip', path.join(dir, 'small.json'))).err).toBe('');
  }, 120_000);

  it('says in --help what it leaves out', async () => {
    const r = await desk(store.target, 'export', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: desk export [options] [file]');
    expect(r.out).toContain('--desk <desk>');
    expect(r.out).toMatch(/secrets are left out/);
    expect(r.out).toMatch(/API keys are never part of the file/);
    expect(r.out).toMatch(/--json +write the business file as JSON/);
  });

  it('refuses a slug taken already, writing nothing', async () => {
    const file = path.join(dir, 'out.yaml');
    const r = await desk(store.target, 'import', file, '--slug', 'round-trip');
    expect(r.code).toBe(1);
    expect(r.err).toContain('A desk with slug "round-trip" already exists.');
  });
});
