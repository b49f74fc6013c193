import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, secretKeyEnv, type TestStore } from '../helpers/db.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { desk } from '../helpers/cli.ts';
import { toItems } from '../../src/domain/work/items.ts';
import { deskContext } from '../../src/domain/context.ts';
import { ACTION_TYPES } from '../../src/domain/vocab.ts';
import { addDays, dateIn } from '../../src/domain/dates.ts';
import { TEST_NOW } from '../helpers/app.ts';

const EXAMPLE = path.resolve('example.yaml');
const TABLES = [
  'desks',
  'api_keys',
  'grants',
  'work',
  'activity',
  'arrangements',
  'units',
  'connections',
  'domains',
  'sections',
  'watches',
  'playbooks',
  'events',
  'timeline',
] as const;

describe.each(DIALECTS)('desk import and the business file ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;

  async function counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const t of TABLES) {
      const r = await store.db
        .selectFrom(t)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      out[t] = Number(r.n);
    }
    return out;
  }

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
  });
  afterAll(async () => {
    await h.close();
    await store.close();
  });

  it("imports the business page's example with a key that GET /me accepts, and answers with every ref", async () => {
    const run = await desk(store.target, 'import', EXAMPLE, '--key', 'ci', '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const r = run.json();
    expect(r.desk).toEqual({ id: expect.stringMatching(/^dsk_/), slug: 'corner-bakery' });
    expect(r.key).toEqual({
      id: expect.any(Number),
      prefix: r.key.key.slice(0, 12),
      key: expect.stringMatching(/^desk_[0-9A-Za-z]{40}$/),
    });
    expect(Object.keys(r.refs).sort()).toEqual(['chase-quote', 'high-st', 'hmrc', 'lease', 'mailbox']);

    const me = await h.call('GET', '/api/v1/me', { key: r.key.key });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.desk).toMatchObject({
      id: r.desk.id,
      slug: 'corner-bakery',
      name: 'Corner Bakery Ltd',
      plan: 'standard',
    });
    expect(me.json().data.work.open).toBe(5);
    expect(me.json().data.key).toEqual({ id: r.key.id, name: 'ci', prefix: r.key.prefix });

    // Refs are the real ids, and relative dates were fixed against the desk's today (Europe/London).
    const today = dateIn('Europe/London', new Date(TEST_NOW));
    const chase = await store.db
      .selectFrom('work')
      .selectAll()
      .where('id', '=', r.refs['chase-quote'])
      .executeTakeFirstOrThrow();
    expect(chase).toMatchObject({
      title: 'Get the oven repair quote',
      due_date: addDays(today, 2),
      waiting_since: addDays(today, -12),
      arrangement_id: r.refs.lease,
      class: 'chase',
    });
    const unit = await store.db
      .selectFrom('units')
      .selectAll()
      .where('id', '=', r.refs['high-st'])
      .executeTakeFirstOrThrow();
    expect(JSON.parse(unit.fields)).toEqual({ lease_end: addDays(today, 40) });
    const draft = await store.db
      .selectFrom('activity')
      .selectAll()
      .where('desk_id', '=', r.desk.id)
      .where('kind', '=', 'message')
      .execute();
    expect(draft).toEqual([
      expect.objectContaining({ status: 'drafted', subject: 'Invoice 4471', to_address: 'accounts@mill.test' }),
    ]);
  });

  it("a revoked key is 401 and a deleted desk's key is 403 no_desk", async () => {
    const imported = await desk(
      store.target,
      'import',
      EXAMPLE.replace('example.yaml', 'examples/demo.yaml'),
      '--key',
      'one',
      '--json',
    );
    expect(imported.code).toBe(0);
    const { desk: d, key } = imported.json();
    const second = (await desk(store.target, 'keys', 'create', '--desk', d.slug, '--name', 'two', '--json')).json();
    expect((await h.call('GET', '/api/v1/', { key: key.key })).statusCode).toBe(200);

    const revoked = await desk(store.target, 'keys', 'revoke', String(key.id));
    expect(revoked.code).toBe(0);
    const after = await h.call('GET', '/api/v1/', { key: key.key });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('unauthorized');

    expect((await desk(store.target, 'desks', 'delete', d.slug, '--yes')).code).toBe(0);
    const gone = await h.call('GET', '/api/v1/me', { key: second.key });
    expect(gone.statusCode).toBe(403);
    expect(gone.json().error.code).toBe('no_desk');
  });

  it('a file with errors writes nothing and names each entry and field', async () => {
    const before = await counts();
    const { writeFileSync, rmSync } = await import('node:fs');
    const file = path.join(
      (await import('node:os')).tmpdir(),
      `desk-bad-${Date.now()}-${Math.random().toString(36).slice(2)}.yaml`,
    );
    writeFileSync(
      file,
      [
        'desk: { name: Broken, slug: broken-desk, timezone: Europe/London }',
        'grants: [reach_out, money]',
        'arrangements:',
        '  - { ref: lease, name: Lease }',
        // Plain dates, compared with each other: no clock is read.
        '  - { ref: short, name: Short lease, starts_on: 2026-05-01, ends_on: 2026-04-30 }',
        'work:',
        '  - { title: Good row, due: "+3d" }',
        '  - { title: Bad date, due: "next week" }',
        '  - { title: Bad class, class: wizard }',
        '  - { title: Dangling, arrangement: nowhere, colour: red }',
        '  - { title: Crossed, arrangement: oven }',
        'units:',
        '  - { ref: oven, type: equipment, name: Oven }',
      ].join('\n'),
    );
    try {
      const run = await desk(store.target, 'import', file, '--key', 'x');
      expect(run.code).toBe(1);
      expect(run.out).toBe('');
      expect(run.err).toContain('grants[1]: "money" cannot be granted');
      expect(run.err).toContain('work[1] "Bad date".due: "next week" is not a date');
      expect(run.err).toContain('work[2] "Bad class".class: "wizard" is not a permission class');
      expect(run.err).toContain('work[3] "Dangling".arrangement: no arrangement has ref "nowhere"');
      expect(run.err).toContain('work[3] "Dangling".colour: unknown field');
      expect(run.err).toContain('work[4] "Crossed".arrangement: "oven" is a unit, not an arrangement');
      expect(run.err).toContain(
        'arrangements[1] "short".ends_on: 2026-04-30 is before starts_on 2026-05-01; an arrangement ends on or after the day it starts',
      );
      expect(run.err.split('\n')[0]).toBe('desk: The business file has 7 errors; nothing was written:');
      expect(await counts()).toEqual(before);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("--slug stands in for a slug the file lacks, and is checked by the file's rule, said of the flag", async () => {
    const { writeFileSync, rmSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync(path.join((await import('node:os')).tmpdir(), 'desk-slug-'));
    const file = path.join(dir, 'no-slug.yaml');
    writeFileSync(file, 'desk: { name: No Slug Cafe, timezone: Europe/London, currency: GBP }\n');
    try {
      const made = await desk(store.target, 'import', file, '--slug', 'given-slug', '--json');
      expect(made.code).toBe(0);
      expect(made.json().desk.slug).toBe('given-slug');
      const bad = await desk(store.target, 'import', file, '--slug', 'Bad Slug!');
      expect(bad.code).toBe(1);
      expect(bad.err).toBe(
        'desk: --slug: "Bad Slug!" must be lower-case letters, digits and dashes, starting with a letter or a digit.\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a long import says how far it has come, on stderr, and the summary is unchanged', async () => {
    const { writeFileSync, rmSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync(path.join((await import('node:os')).tmpdir(), 'desk-long-'));
    const file = path.join(dir, 'long.yaml');
    const rows = Array.from({ length: 2_500 }, (_, i) => `  - { title: "Row ${i + 1}" }`);
    writeFileSync(file, ['desk: { name: Long Desk, slug: long-desk }', 'work:', ...rows].join('\n'));
    try {
      const run = await desk(store.target, 'import', file);
      expect(run.code).toBe(0);
      expect(run.err.split('\n').filter(Boolean)).toEqual([
        'Importing 2,500 work items in one transaction: all of them are kept, or none.',
        'Importing: 1,000 of 2,500 work items written…',
        'Importing: 2,000 of 2,500 work items written…',
      ]);
      expect(run.out).toMatch(/^Imported "Long Desk" as desk long-desk .*: 2,500 work items,/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`desk import -` reads the file from standard input', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['bin/desk.js', 'import', '-', '--slug', 'from-stdin', '--json'], {
      env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW, ...secretKeyEnv(store.target) },
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stdin.end(readFileSync(EXAMPLE));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(JSON.parse(out).desk.slug).toBe('from-stdin');
  });

  it('`desk import -` waits for a slow writer on a pipe, over many reads, to the end of its input', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['bin/desk.js', 'import', '-', '--slug', 'slow-pipe', '--json'], {
      env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW, ...secretKeyEnv(store.target) },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    // Padded with a comment past a pipe's 64 KB, and sent in two parts with a pause between.
    const text = `${readFileSync(EXAMPLE, 'utf8')}\n# ${'x'.repeat(200_000)}\n`;
    child.stdin.write(text.slice(0, 1000));
    // Long enough for the command to have started and read what was there.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    child.stdin.end(text.slice(1000));
    expect(await new Promise((resolve) => child.on('close', resolve)), err).toBe(0);
    expect(JSON.parse(out).desk.slug).toBe('slow-pipe');
  });

  it('a file that fails while writing (a slug already taken) leaves nothing behind', async () => {
    const before = await counts();
    const run = await desk(store.target, 'import', EXAMPLE, '--key', 'again');
    expect(run.code).toBe(1);
    expect(run.err.trim()).toBe(
      'desk: A desk with slug "corner-bakery" already exists. `desk import FILE --slug NEW-SLUG` imports the file under another slug.',
    );
    expect(await counts()).toEqual(before);
  });

  it('reports unreadable files in one line, and text that is not YAML with its line and a caret', async () => {
    const missing = await desk(store.target, 'import', '/nonexistent/business.yaml');
    expect(missing).toMatchObject({ code: 1, out: '' });
    expect(missing.err).toBe('desk: Cannot read /nonexistent/business.yaml: no such file.\n');
    const { writeFileSync, rmSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync(path.join((await import('node:os')).tmpdir(), 'desk-bad-'));
    writeFileSync(path.join(dir, 'x.yaml'), 'desk: { name: [unclosed');
    try {
      const broken = await desk(store.target, 'import', path.join(dir, 'x.yaml'));
      expect(broken.code).toBe(1);
      const lines = broken.err.split('\n');
      expect(lines[0]).toMatch(/^desk: .*x\.yaml is not YAML or JSON: .+ at line 1, column \d+\.$/);
      expect(lines[1]).toBe('  1 | desk: { name: [unclosed');
      expect(lines[2]).toMatch(/^ {4}\| {2,}\^$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that is not UTF-8 text, naming it, and writes nothing', async () => {
    const { writeFileSync, rmSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync(path.join((await import('node:os')).tmpdir(), 'desk-latin1-'));
    const file = path.join(dir, 'latin1.yaml');
    // Saved as Latin-1: the é of "Café" is the one byte 0xE9.
    writeFileSync(file, Buffer.from('desk: { name: Café Nord, slug: cafe-nord, timezone: UTC }\n', 'latin1'));
    try {
      const before = await counts();
      const run = await desk(store.target, 'import', file);
      expect(run).toMatchObject({ code: 1, out: '' });
      expect(run.err).toBe(`desk: ${file} is not UTF-8 text; save it as UTF-8 and import it again.\n`);
      expect(await counts()).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a .json file, or standard input opening with {, as strict JSON, with the line and a caret', async () => {
    const { writeFileSync, rmSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync(path.join((await import('node:os')).tmpdir(), 'desk-json-'));
    const lines = [
      '{',
      '  "desk": { "name": "Json Cafe", "slug": "json-cafe", "timezone": "Europe/London" },',
      '  "work": [',
      '    { "title": "Renew the licence", "due": "+3d" },',
      '  ]',
      '}',
    ];
    const trailing = lines.join('\n');
    const refused = (err: string, source: string) => {
      const shown = err.split('\n');
      expect(shown[0]).toBe(
        `desk: ${source} is not JSON: line 4, column 51: a comma before ], where JSON takes none after the last entry.`,
      );
      expect(shown[1]).toBe(`  4 | ${lines[3]}`);
      expect(shown[2]).toBe(`    | ${' '.repeat(50)}^`);
    };
    try {
      const file = path.join(dir, 'cafe.json');
      writeFileSync(file, trailing);
      const before = await counts();
      const bad = await desk(store.target, 'import', file);
      expect(bad).toMatchObject({ code: 1, out: '' });
      refused(bad.err, file);
      expect(bad.err).not.toContain('read as JSON');
      const twice = path.join(dir, 'twice.json');
      writeFileSync(twice, '{ "desk": { "name": "Json Cafe", "slug": "json-cafe", "slug": "other" } }');
      expect((await desk(store.target, 'import', twice)).err).toMatch(
        /is not JSON: line 1, column 55: "slug" is given twice in one object\.\n/,
      );
      expect(await counts()).toEqual(before);

      const { spawn } = await import('node:child_process');
      const child = spawn(process.execPath, ['bin/desk.js', 'import', '-'], {
        env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW, ...secretKeyEnv(store.target) },
      });
      let err = '';
      child.stderr.on('data', (c) => (err += c));
      child.stdin.end(trailing);
      expect(await new Promise((resolve) => child.on('close', resolve))).toBe(1);
      refused(err, 'standard input');
      expect(err.split('\n')[3]).toBe(
        'It opens with {, so it was read as JSON; a YAML file is read as YAML when its name ends in .yaml.',
      );
      expect(await counts()).toEqual(before);

      writeFileSync(file, trailing.replace('},\n  ]', '}\n  ]'));
      const good = await desk(store.target, 'import', file, '--json');
      expect(good.code, good.err).toBe(0);
      expect(good.json().desk.slug).toBe('json-cafe');
      // A YAML file may open with { too: a flow mapping, read as YAML.
      const flow = path.join(dir, 'flow.yaml');
      writeFileSync(flow, '{ desk: { name: Flow Cafe, slug: flow-cafe }, work: [{ title: A row }, ] }\n');
      expect((await desk(store.target, 'import', flow)).code).toBe(0);
      // Named otherwise, it opens as JSON does and is read so: the refusal says how to have it read as YAML.
      const txt = path.join(dir, 'flow.txt');
      writeFileSync(txt, '{ desk: { name: Flow Two, slug: flow-two } }\n');
      const guessed = await desk(store.target, 'import', txt);
      expect(guessed.code).toBe(1);
      expect(guessed.err).toContain(`${txt} is not JSON: line 1, column 3`);
      expect(guessed.err).toContain('a YAML file is read as YAML when its name ends in .yaml.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the demo desk shows every action type, and `desk demo` again gives a new key to the same desk', async () => {
    const first = await desk(store.target, 'demo', '--json');
    expect(first.code).toBe(0);
    const d = first.json();
    expect(d.created).toBe(true);
    const again = (await desk(store.target, 'demo', '--json')).json();
    expect(again).toMatchObject({ created: false, desk: d.desk });
    expect(again.key.key).not.toBe(d.key.key);

    const deskRow = await store.db
      .selectFrom('desks')
      .selectAll()
      .where('id', '=', d.desk.id)
      .executeTakeFirstOrThrow();
    const ctx = deskContext(h.deps, deskRow, { type: 'owner', name: 'test' });
    const rows = await store.db.selectFrom('work').selectAll().where('desk_id', '=', d.desk.id).execute();
    const items = await toItems(ctx, rows);
    const types = new Set(items.map((i) => i.action?.type).filter(Boolean));
    expect([...types].sort()).toEqual([...ACTION_TYPES].sort());
    const labels = new Set(items.map((i) => i.action?.label));
    expect(labels).toContain('Run it now');
    expect(labels).toContain('Let the desk do it');
  });
});
