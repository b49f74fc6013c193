import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { desk } from '../helpers/cli.ts';
import { makeDesk, makeWorkMany } from '../helpers/factories.ts';
import { LIST_SAYS_EVERY } from '../../src/cli/commands/work.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { addDays, dateIn } from '../../src/domain/dates.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { deskForSession, redeemSignInLink } from '../../src/domain/owner/sign-in.ts';
import { redact } from '../../src/store/location.ts';

// The owner's commands, run as the owner types them, against both databases.

const NOT_UTF8 =
  'holds bytes that are not UTF-8 (shown as \uFFFD), and the desk reads what is typed as UTF-8: set the terminal to UTF-8, or rename a file named in another encoding.';

describe.each(DIALECTS)("the owner's commands ($name)", ({ open }) => {
  let store: TestStore;
  let slug: string;
  let deskId: string;

  beforeAll(async () => {
    store = await open();
    const r = (await desk(store.target, 'import', path.resolve('example.yaml'), '--json')).json();
    slug = r.desk.slug;
    deskId = r.desk.id;
  });
  afterAll(async () => {
    await store.close();
  });

  it('--help explains every command, and each command has its own help', async () => {
    const top = await desk(store.target, '--help');
    expect(top.code).toBe(0);
    for (const c of ['serve', 'import', 'demo', 'desks', 'keys', 'grants', 'work']) expect(top.out).toContain(c);
    // The work group names each of its commands where the top help lists it (its entry runs on
    // over the indented lines after it).
    const lines = top.out.split('\n');
    const at = lines.findIndex((l) => /^ {2}work /.test(l));
    const next = lines.findIndex((l, i) => i > at && /^ {2}\S/.test(l));
    const workEntry = lines.slice(at, next).join(' ');
    for (const c of ['list', 'show', 'snooze', 'draft', 'complete', 'add', 'edit', 'close', 'reopen', 'assign', 'pass'])
      expect(workEntry, c).toMatch(new RegExp(`\\b${c}\\b`));
    // `desk help` on a command that does not exist is refused as the command itself would be.
    const typo = await desk(store.target, 'help', 'wrok');
    expect(typo).toMatchObject({ code: 1, out: '' });
    expect(typo.err).toBe("desk: unknown command 'wrok'\n(Did you mean work?)\n");
    // As JSON the refusal is one line, suggestion and all.
    const typoJson = await desk(store.target, 'wrok', '--json');
    expect(typoJson.code).toBe(1);
    expect(typoJson.json().error.message).toBe("unknown command 'wrok' (Did you mean work?)");
    // `help` before command words asks for the last one's help, wherever it is typed.
    const listHelp = (await desk(store.target, 'work', 'list', '--help')).out;
    for (const words of [
      ['help', 'work', 'list'],
      ['work', 'help', 'list'],
      ['help', 'work', 'list', '--db', store.target],
    ]) {
      const asked = await desk(store.target, ...words);
      expect(asked, words.join(' ')).toMatchObject({ code: 0, out: listHelp });
    }
    // A word no group has is refused as it is without `help`, saying which commands there are.
    for (const words of [
      ['work', 'help', 'bogus'],
      ['help', 'work', 'bogus'],
    ]) {
      const asked = await desk(store.target, ...words);
      expect(asked, words.join(' ')).toMatchObject({ code: 1, out: '' });
      expect(asked.err).toMatch(/^desk: unknown command 'bogus'\nThe commands of `desk work` are list, /);
    }
    const add = await desk(store.target, 'work', 'add', '--help');
    expect(add.code).toBe(0);
    expect(add.out).toContain('--due <date>');
    expect(add.out).toContain('--json');
    // What it cannot run without says so; its own flags come before those every command shares.
    const flags = add.out.split('\n').filter((l) => /^\s+-/.test(l));
    expect(flags.filter((l) => l.endsWith('(required)')).map((l) => l.trim().split(' ')[0])).toEqual([
      '--desk',
      '--title',
    ]);
    expect(flags.slice(-3).map((l) => l.trim().split(' ')[0])).toEqual(['--db', '--json', '-h,']);
    const list = await desk(store.target, 'work', 'list', '--help');
    expect(list.out).toContain('(default: 50)');
  });

  it('bare desk and a group with no command are mistakes: help on stderr, exit 1; asked for, help is on stdout', async () => {
    for (const args of [[], ['work'], ['keys']]) {
      const r = await desk(store.target, ...args);
      expect(r, args.join(' ')).toMatchObject({ code: 1, out: '' });
      expect(r.err).toContain(`Usage: ${['desk', ...args].join(' ')} [options] [command]`);
      const asked = await desk(store.target, ...args, '--help');
      expect(asked).toMatchObject({ code: 0, err: '' });
      expect(asked.out).toBe(r.err);
    }
  });

  it('several bad flags on work add are each named, one line apiece, and nothing is added', async () => {
    const run = await desk(
      store.target,
      'work',
      'add',
      '--desk',
      slug,
      '--title',
      'x',
      '--due',
      '2026-13-01',
      '--priority',
      '500',
      '--class',
      'zzz',
    );
    expect(run.code).toBe(1);
    expect(run.err.split('\n').filter(Boolean)).toEqual([
      'desk: 3 fields need fixing; nothing was changed:',
      '  --due: "2026-13-01" is not a date; use YYYY-MM-DD, today, +14d or -3d.',
      '  --priority must be a whole number from 1 to 100, not "500".',
      expect.stringMatching(/^ {2}--class: "zzz" is not a permission class/),
    ]);
    expect(await store.db.selectFrom('work').select('id').where('title', '=', 'x').execute()).toEqual([]);
  });

  it('several mistakes in what was typed are each said, one line apiece, before the database is opened', async () => {
    const lines = (r: { err: string }) => r.err.split('\n').filter(Boolean);
    const list = await desk(store.target, 'work', 'list', '--status', 'later', '--limit', '0');
    expect(list.code).toBe(1);
    expect(lines(list)).toEqual([
      'desk: The command has 3 mistakes; nothing was done:',
      '  work list needs --desk <desk> (desk id or slug).',
      '  --status must be one of open, in_progress, waiting, done, closed.',
      '  --limit must be a whole number from 1 to 200, not "0".',
    ]);
    const json = await desk(store.target, 'work', 'list', '--status', 'later', '--limit', '0', '--json');
    expect(json.json()).toEqual({
      error: {
        code: 'bad_request',
        message:
          'The command has 3 mistakes; nothing was done. work list needs --desk <desk> (desk id or slug) (and 2 more).',
        details: {
          errors: lines(list)
            .slice(1)
            .map((l) => l.trim()),
        },
      },
    });

    const create = await desk(store.target, 'desks', 'create', 'Third', '--currency', 'GBP', '--port', '70000');
    expect(lines(create)).toEqual([
      'desk: The command has 3 mistakes; nothing was done:',
      '  desks create needs --slug <slug> (short name for commands: lower-case letters, digits and dashes).',
      '  desks create needs --timezone <zone> (IANA time zone its days are counted in, such as Europe/London).',
      '  --port "70000" is not a port number (1-65535).',
    ]);
    expect(lines(await desk(store.target, 'work', 'snooze', 'abc', '--days', 'x'))).toEqual([
      'desk: The command has 2 mistakes; nothing was done:',
      '  "abc" is not a work item id; ids are whole numbers such as 12.',
      '  --days must be a whole number from 1 to 365, not "x".',
    ]);
    // Said before the database is looked for: this one does not exist.
    expect(lines(await desk(`${store.target}-none`, 'work', 'snooze', '1', '--days', '0'))).toEqual([
      'desk: --days must be a whole number from 1 to 365, not "0".',
    ]);
    expect(lines(await desk(store.target, 'keys', 'create'))).toEqual([
      'desk: The command has 2 mistakes; nothing was done:',
      '  keys create needs --desk <desk> (desk id or slug).',
      '  keys create needs --name <name> (who will hold it, e.g. zapier).',
    ]);
    expect(lines(await desk(store.target, 'work', 'assign', 'twelve'))).toEqual([
      'desk: The command has 2 mistakes; nothing was done:',
      '  "twelve" is not a work item id; ids are whole numbers such as 12.',
      '  work assign needs either --to <person> or --clear.',
    ]);
    // What was typed is judged before the database is looked for.
    const nowhere = path.join((await import('node:os')).tmpdir(), 'desk-no-such-folder', 'desk.db');
    const keys = await desk(nowhere, 'keys', 'create', '--desk', slug, '--name', 'x', '--expires', 'soon');
    expect(keys.err).toBe('desk: --expires "soon" is not a date; use YYYY-MM-DD or +30d.\n');
  });

  it('work list --limit takes a whole number from 1 to 200, and says so otherwise', async () => {
    for (const bad of ['abc', '0', '500', '2.5']) {
      const run = await desk(store.target, 'work', 'list', '--desk', slug, '--limit', bad);
      expect(run.code, bad).toBe(1);
      expect(run.err).toBe(`desk: --limit must be a whole number from 1 to 200, not "${bad}".\n`);
    }
    // --all shows every row, so a limit beside it would be ignored: the two are refused together.
    const both = await desk(store.target, 'work', 'list', '--desk', slug, '--all', '--limit', '5');
    expect(both).toMatchObject({ code: 1, out: '' });
    expect(both.err).toBe("desk: option '--limit <n>' cannot be used with option '--all'\n");
    const two = await desk(store.target, 'work', 'list', '--desk', slug, '--limit', '2', '--json');
    expect(two.json().items).toHaveLength(2);
  });

  it('work list --all says how far it has read on a large desk, on standard error, and lists every row', async () => {
    const { desk: large } = await makeDesk(store.db, { slug: 'large-list', name: 'Large List' });
    const rows = 2 * LIST_SAYS_EVERY + 10;
    await makeWorkMany(
      store.db,
      large.id,
      Array.from({ length: rows }, (_, i) => ({ title: `Row ${i}` })),
    );
    const all = await desk(store.target, 'work', 'list', '--desk', 'large-list', '--all');
    expect(all.code).toBe(0);
    expect(all.err).toBe('Reading: 10,000 of 20,010 open rows…\nReading: 20,000 of 20,010 open rows…\n');
    expect(all.out).toMatch(/\n20,?010 shown of 20,?010 open\.\n$/);
    // With --json, standard error stays quiet, as for every command but what opening the database did.
    const json = await desk(store.target, 'work', 'list', '--desk', 'large-list', '--all', '--json');
    expect(json.err).toBe('');
    expect(json.json().items).toHaveLength(rows);
  }, 120_000);

  it('an unknown flag, a missing desk or a malformed date is one line and exit 1', async () => {
    const flag = await desk(store.target, 'desks', 'list', '--colour');
    expect(flag.code).toBe(1);
    expect(flag.err).toBe("desk: unknown option '--colour'\n");
    // A value forgotten: the next flag is not taken for it, and nothing is made.
    const keys = (await desk(store.target, 'keys', 'list', '--desk', slug, '--json')).json().length;
    const forgot = await desk(store.target, 'keys', 'create', '--name', '--desk', slug);
    expect({ code: forgot.code, err: forgot.err }).toEqual({
      code: 1,
      err: 'desk: --name needs its value before --desk.\n',
    });
    // Joined to its flag with `=`, a value that is another flag's name is the value given.
    const joined = await desk(store.target, 'work', 'add', '--desk', slug, '--title=--json', '--json');
    expect(joined.code, joined.err).toBe(0);
    expect(joined.json().title).toBe('--json');
    // Closed again: the desk's open rows are counted further on.
    expect((await desk(store.target, 'work', 'close', String(joined.json().id), '--desk', slug)).code).toBe(0);
    expect((await desk(store.target, 'keys', 'list', '--desk', slug, '--json')).json()).toHaveLength(keys);
    // A value that only looks like a flag is still a value.
    const dashed = await desk(store.target, 'work', 'list', '--desk', '--not-a-flag');
    expect(dashed.err).toBe('desk: No desk "--not-a-flag". `desk desks list` shows the desks.\n');
    const missing = await desk(store.target, 'work', 'add', '--desk', 'no-such-desk', '--title', 'X');
    expect(missing).toMatchObject({ code: 1, out: '' });
    expect(missing.err).toBe('desk: No desk "no-such-desk". `desk desks list` shows the desks.\n');
    const date = await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'X', '--due', '31/12/2026');
    expect(date.code).toBe(1);
    expect(date.err).toBe('desk: --due: "31/12/2026" is not a date; use YYYY-MM-DD, today, +14d or -3d.\n');
    const named = await desk(store.target, 'keys', 'create', '--desk', slug, '--name', 'k'.repeat(201));
    expect(named).toMatchObject({ code: 1, out: '', err: "desk: A key's name is at most 200 characters.\n" });
    const expires = await desk(store.target, 'keys', 'create', '--desk', slug, '--name', 'x', '--expires', 'soon');
    expect(expires.code).toBe(1);
    expect(expires.err.split('\n').filter(Boolean)).toHaveLength(1);
    // A year typed short (0026 for 2026) is a day before the first one the desk keeps, said so.
    for (const day of ['0001-01-01', '0099-12-31', '1899-12-31']) {
      const early = await desk(
        store.target,
        'keys',
        'create',
        '--desk',
        slug,
        '--name',
        'x',
        '--expires',
        day,
        '--json',
      );
      expect(early.code).toBe(1);
      expect(early.json().error).toMatchObject({ code: 'bad_request' });
      expect(early.json().error.message).toBe(`--expires "${day}" is before 1900-01-01, the first day the desk keeps.`);
    }
    const unknown = await desk(store.target, 'frobnicate');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^desk: unknown command 'frobnicate'\nThe commands of `desk` are serve, import, /);
    // Nothing close enough to suggest: the group's own commands are named.
    const none = await desk(store.target, 'grants', 'add', 'chase');
    expect(none).toMatchObject({ code: 1, out: '' });
    expect(none.err).toBe(
      "desk: unknown command 'add'\nThe commands of `desk grants` are set, unset and list; `desk grants --help` says what each does.\n",
    );
    const asJson = await desk(store.target, 'keys', 'zz', '--json');
    expect(asJson.json().error.message).toBe(
      "unknown command 'zz'. The commands of `desk keys` are create, list and revoke; `desk keys --help` says what each does.",
    );
  });

  it('desks list and keys list print JSON with --json; keys never show the secret again', async () => {
    const list = await desk(store.target, 'desks', 'list', '--json');
    expect(list.json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: deskId, slug, open_work: 5 })]));
    const made = (
      await desk(
        store.target,
        'keys',
        'create',
        '--desk',
        slug,
        '--name',
        'zapier',
        '--expires',
        '2027-06-30',
        '--json',
      )
    ).json();
    expect(made).toMatchObject({
      name: 'zapier',
      prefix: made.key.slice(0, 12),
      expires_at: '2027-06-30T23:00:00.000Z',
    });
    const keys = await desk(store.target, 'keys', 'list', '--desk', slug, '--json');
    expect(keys.out).not.toContain(made.key);
    expect(keys.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: made.id, name: 'zapier', prefix: made.prefix })]),
    );
    const stored = await store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(stored.hash).not.toContain(made.key.slice(5));
    expect((await desk(store.target, 'keys', 'revoke', String(made.id), '--json')).code).toBe(0);
    const logged = await store.db
      .selectFrom('events')
      .selectAll()
      .where('desk_id', '=', deskId)
      .where('kind', 'in', ['key_created', 'key_revoked'])
      .orderBy('id')
      .execute();
    expect(logged.map((e) => [e.kind, JSON.parse(e.data).key_id, JSON.parse(e.data).by])).toEqual([
      ['key_created', made.id, 'owner'],
      ['key_revoked', made.id, 'owner'],
    ]);
  });

  it('grants help offers only what can be granted, and says money and sign never can be', async () => {
    const group = await desk(store.target, 'grants', '--help');
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    expect(flat(group.out)).toContain(
      'Let the desk act on its own for a class of work (reach_out, chase, file or commit); money and sign can never be granted: they always need a person',
    );
    for (const verb of ['set', 'unset']) {
      const r = await desk(store.target, 'grants', verb, '--help');
      expect(r.code).toBe(0);
      expect(flat(r.out)).toContain('class reach_out | chase | file | commit (money and sign can never be granted)');
    }
  });

  it('grants: money and sign are refused with a reason; others are set and unset', async () => {
    for (const cls of ['money', 'sign']) {
      const r = await desk(store.target, 'grants', 'set', '--desk', slug, cls);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(new RegExp(`^desk: "${cls}" cannot be granted: .+ always needs a person\\.\\n$`));
    }
    expect((await desk(store.target, 'grants', 'set', '--desk', slug, 'wizardry')).err).toBe(
      'desk: "wizardry" is not a permission class; the desk may be granted reach_out, chase, file or commit (money and sign always need a person).\n',
    );
    // Never granted, so there is nothing to withdraw: it changes nothing and is no mistake.
    const money = await desk(store.target, 'grants', 'unset', '--desk', slug, 'money', '--json');
    expect(money.code).toBe(0);
    expect(money.json()).toMatchObject({ class: 'money', granted: false, changed: false });
    const set = (await desk(store.target, 'grants', 'set', '--desk', slug, 'file', '--json')).json();
    expect(set).toMatchObject({ class: 'file', granted: true, changed: true, grants: ['chase', 'file', 'reach_out'] });
    const unset = (await desk(store.target, 'grants', 'unset', '--desk', slug, 'file', '--json')).json();
    expect(unset).toMatchObject({ changed: true, grants: ['chase', 'reach_out'] });
    const events = await store.db
      .selectFrom('events')
      .select('data')
      .where('desk_id', '=', deskId)
      .where('kind', '=', 'grant_changed')
      .orderBy('id')
      .execute();
    expect(events.map((e) => JSON.parse(e.data).by)).toEqual(['import', 'import', 'owner', 'owner']);
  });

  it('work add, edit, assign, close and reopen change the row and keep the open count', async () => {
    const openCount = async () =>
      Number(
        (await store.db.selectFrom('desks').select('open_count').where('id', '=', deskId).executeTakeFirstOrThrow())
          .open_count,
      );
    const before = await openCount();
    const added = await desk(
      store.target,
      'work',
      'add',
      '--desk',
      slug,
      '--title',
      'Renew the alarm contract',
      '--due',
      '+14d',
      '--class',
      'reach_out',
      '--contact-email',
      'alarms@secure.test',
      '--json',
    );
    expect(added.code).toBe(0);
    const item = added.json();
    expect(item).toMatchObject({
      title: 'Renew the alarm contract',
      status: 'open',
      permission: 'reach_out',
      allowed: true,
      action: { type: 'run' },
    });
    expect(await openCount()).toBe(before + 1);

    const edited = (
      await desk(store.target, 'work', 'edit', String(item.id), '--priority', '90', '--due', 'none', '--json')
    ).json();
    expect(edited).toMatchObject({ priority: 90, due_date: null });
    expect((await desk(store.target, 'work', 'edit', String(item.id), '--priority', '0')).err).toBe(
      'desk: --priority must be a whole number from 1 to 100, not "0".\n',
    );

    const assigned = (await desk(store.target, 'work', 'assign', String(item.id), '--to', 'Sam', '--json')).json();
    expect(assigned.action.type).toBe('own');
    expect((await findWork(store.db, deskId, item.id))!.assignee).toBe('Sam');
    const back = (await desk(store.target, 'work', 'assign', String(item.id), '--clear', '--json')).json();
    expect(back.action.type).toBe('run');
    const long = await desk(store.target, 'work', 'assign', String(item.id), '--to', 'S'.repeat(201));
    expect(long).toMatchObject({ code: 1, err: "desk: --to: A person's name is at most 200 characters.\n" });
    expect((await findWork(store.db, deskId, item.id))!.assignee).toBeNull();

    const closed = (
      await desk(store.target, 'work', 'close', String(item.id), '--note', 'Renewed by phone.', '--json')
    ).json();
    expect(closed).toMatchObject({ status: 'closed', action: null, detail: 'Renewed by phone.' });
    expect(await openCount()).toBe(before);
    // Closed again, nothing changes and nothing is refused (P-cli-28).
    expect(await desk(store.target, 'work', 'close', String(item.id))).toMatchObject({
      code: 0,
      err: '',
      out: expect.stringMatching(new RegExp(`^#${item.id} is already closed; nothing was changed\\.\n`)),
    });

    const reopened = (await desk(store.target, 'work', 'reopen', String(item.id), '--json')).json();
    expect(reopened.status).toBe('open');
    expect(await openCount()).toBe(before + 1);

    const timeline = await store.db
      .selectFrom('timeline')
      .select('kind')
      .where('work_id', '=', item.id)
      .orderBy('id')
      .execute();
    expect(timeline.map((t) => t.kind)).toEqual(['created', 'edited', 'assigned', 'assigned', 'closed', 'reopened']);
    expect((await desk(store.target, 'work', 'close', '99999999')).err).toBe(
      "desk: No work item 99999999 in this database. `desk work list --desk SLUG` shows a desk's rows.\n",
    );
    expect((await desk(store.target, 'work', 'close', '99999999', '--desk', slug)).err).toBe(
      `desk: No work item 99999999 on the desk ${slug}.\n`,
    );
    expect((await desk(store.target, 'work', 'close', 'abc')).err).toBe(
      'desk: "abc" is not a work item id; ids are whole numbers such as 12.\n',
    );
    // A whole number no row can have (past the largest id, which PostgreSQL would refuse as a
    // number, or 0) is a row that is not there, said as any missing one is, as the API's 404 (P-cli-27).
    for (const typed of ['2147483648', '99999999999', '99999999999999999999', '0']) {
      for (const args of [
        ['work', 'close', typed],
        ['work', 'show', typed],
        ['work', 'snooze', typed],
        ['run', typed],
      ]) {
        const run = await desk(store.target, ...args);
        expect({ code: run.code, err: run.err }, args.join(' ')).toEqual({
          code: 1,
          err: `desk: No work item ${typed} in this database. \`desk work list --desk SLUG\` shows a desk's rows.\n`,
        });
      }
      expect((await desk(store.target, 'work', 'show', typed, '--desk', slug)).err).toBe(
        `desk: No work item ${typed} on the desk ${slug}.\n`,
      );
      const missing = (await desk(store.target, 'work', 'show', '99999999', '--json')).json();
      expect((await desk(store.target, 'work', 'show', typed, '--json')).json()).toEqual({
        error: { code: 'not_found', message: missing.error.message.replace('99999999', typed) },
      });
      expect((await desk(store.target, 'keys', 'revoke', typed)).err).toBe(`desk: No key ${typed}.\n`);
    }
    // Digits typed with leading zeros are the same id, and said as the number they are.
    expect((await desk(store.target, 'work', 'show', '0099999999999999999999')).err).toBe(
      "desk: No work item 99999999999999999999 in this database. `desk work list --desk SLUG` shows a desk's rows.\n",
    );
    // What is not a whole number is still refused as not an id, before the database is opened.
    expect((await desk(store.target, 'work', 'show', '1.5')).err).toBe(
      'desk: "1.5" is not a work item id; ids are whole numbers such as 12.\n',
    );
    // A flag that names nothing, or one given twice, is refused, not read as absent or as the last one.
    const id = added.json().id as number;
    const shown = (await desk(store.target, 'work', 'show', String(id), '--json')).json();
    for (const [args, said] of [
      [['work', 'close', String(id), '--desk', ''], 'desk: --desk needs a value; "" names nothing.\n'],
      [
        ['work', 'close', String(id), '--desk', slug, '--desk=other'],
        'desk: --desk is given more than once; give it once.\n',
      ],
      [
        ['work', 'edit', String(id), '--needs-person', '--no-needs-person'],
        'desk: --needs-person is given more than once; give it once.\n',
      ],
      [['work', 'list', '--desk', slug, '--kind', ' '], 'desk: --kind needs a value; " " names nothing.\n'],
      // Only zero-width characters, pasted in: as empty, as the screen reads them (P-screen-17).
      [['work', 'list', '--desk', slug, '--kind', '\u200b'], 'desk: --kind needs a value; "\u200b" names nothing.\n'],
      [['work', 'edit', String(id), '--title', '\u200b\u00a0'], 'desk: --title: A work item needs a title.\n'],
      [
        ['keys', 'create', '--desk', slug, '--name', '\u200b'],
        'desk: A key needs a name, such as the program that will hold it.\n',
      ],
      // An address left empty (an unset shell variable) is not read as the default loopback one.
      [['serve', '--port', '0', '--host', ''], 'desk: --host needs a value; "" names nothing.\n'],
      // Bytes the terminal sent that are not UTF-8 reach the program as U+FFFD: refused, not stored.
      [['work', 'edit', String(id), '--title', 'Caf\uFFFD'], `desk: --title ${NOT_UTF8}\n`],
      [['import', 'caf\uFFFD.yaml'], `desk: <file> ${NOT_UTF8}\n`],
    ] as const) {
      const run = await desk(store.target, ...args);
      expect({ code: run.code, err: run.err }, args.join(' ')).toEqual({ code: 1, err: said });
    }
    expect((await desk(store.target, 'work', 'show', String(id), '--json')).json()).toEqual(shown);
  });

  it("work list shows the queue in the API's order and work show one row with its history", async () => {
    const list = (await desk(store.target, 'work', 'list', '--desk', slug, '--json')).json();
    expect(list.open_total).toBe(list.items.length);
    expect(list.items[0]).toMatchObject({ title: 'File VAT return', overdue: true });
    const people = await desk(store.target, 'work', 'list', '--desk', slug, '--limit', '2');
    expect(people.out).toMatch(/^id +due +pri +status +next +title\n/);
    expect(people.out).toContain('--all shows every one.');
    const id = list.items[0].id;
    const shown = await desk(store.target, 'work', 'show', String(id));
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`#${id} File VAT return [open] OVERDUE`);
    expect(shown.out).toContain('Brought in from the business file.');
    // A finished row is no longer overdue, as the screen has it.
    const old = (
      await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'Old filing', '--due', '-3d', '--json')
    ).json();
    expect((await desk(store.target, 'work', 'close', String(old.id))).code).toBe(0);
    expect((await desk(store.target, 'work', 'show', String(old.id))).out).toMatch(
      new RegExp(`^#${old.id} Old filing \\[closed\\]\n`),
    );
    expect((await desk(store.target, 'work', 'list', '--desk', slug, '--status', 'finished')).err).toBe(
      'desk: --status must be one of open, in_progress, waiting, done, closed.\n',
    );
  });

  it('watches run opens the row a watched date calls for, once', async () => {
    const first = await desk(store.target, 'watches', 'run', '--desk', slug, '--json');
    expect(first.code).toBe(0);
    const r = first.json();
    expect(r.failures).toEqual([]);
    // The example's site lease ends in 40 days (the desk's today, Europe/London) under a 60-day watch.
    const leaseEnd = addDays(dateIn('Europe/London', new Date(TEST_NOW)), 40);
    expect(r.created).toEqual([
      expect.objectContaining({ title: 'Lease renewal: 12 High Street', watch_date: leaseEnd }),
    ]);
    const row = await findWork(store.db, deskId, r.created[0].work_id);
    expect(row).toMatchObject({
      kind: 'lease_renewal',
      class: 'commit',
      priority: 70,
      due_date: leaseEnd,
      status: 'open',
    });
    const again = await desk(store.target, 'watches', 'run', '--desk', slug);
    expect(again.code).toBe(0);
    expect(again.out).toBe('Checked 1 desk: 0 new rows.\n');
    expect((await desk(store.target, 'watches', 'run', '--desk', 'nope')).err).toMatch(/^desk: No desk "nope"/);
  });
  it('watches run names the desk of each new row, and --json gives its slug beside its id', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const dir = mkdtempSync(path.join((await import('node:os')).tmpdir(), 'desk-watches-'));
    const today = dateIn('Europe/London', new Date(TEST_NOW));
    try {
      const made: Record<string, string> = {};
      for (const [slug, site] of [
        ['watch-one', 'The Shop'],
        ['watch-two', 'The Yard'],
      ] as const) {
        const file = path.join(dir, `${slug}.yaml`);
        writeFileSync(
          file,
          [
            `desk: { name: ${site} Ltd, slug: ${slug}, timezone: Europe/London }`,
            `units: [{ type: site, name: ${site}, fields: { lease_end: "+10d" } }]`,
            'watches: [{ subject_type: site, field: lease_end, label: Lease renewal, lead_days: 60, kind: lease_renewal, action: commit }]',
          ].join('\n'),
        );
        made[slug] = (await desk(store.target, 'import', file, '--json')).json().desk.id;
      }
      const run = await desk(store.target, 'watches', 'run');
      expect(run.code, run.err).toBe(0);
      for (const [slug, site] of [
        ['watch-one', 'The Shop'],
        ['watch-two', 'The Yard'],
      ] as const) {
        const row = await store.db
          .selectFrom('work')
          .select('id')
          .where('desk_id', '=', made[slug]!)
          .where('title', '=', `Lease renewal: ${site}`)
          .executeTakeFirstOrThrow();
        expect(run.out).toContain(`\n  ${slug} #${row.id} Lease renewal: ${site} (due ${addDays(today, 10)})\n`);
      }

      const file = path.join(dir, 'watch-three.yaml');
      writeFileSync(
        file,
        [
          'desk: { name: Three Ltd, slug: watch-three, timezone: Europe/London }',
          'units: [{ type: site, name: The Barn, fields: { lease_end: "+10d" } }]',
          'watches: [{ subject_type: site, field: lease_end, label: Lease renewal, lead_days: 60, kind: lease_renewal, action: commit }]',
        ].join('\n'),
      );
      const three = (await desk(store.target, 'import', file, '--json')).json().desk;
      const json = (await desk(store.target, 'watches', 'run', '--json')).json();
      expect(json.created).toEqual([
        expect.objectContaining({ desk: 'watch-three', desk_id: three.id, title: 'Lease renewal: The Barn' }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('desks create makes an empty desk, logged as the owner; --link adds its sign-in link; bad input writes nothing', async () => {
    const made = await desk(
      store.target,
      'desks',
      'create',
      'Harbour Joinery',
      '--slug',
      'harbour-joinery',
      '--timezone',
      'Europe/Dublin',
      '--currency',
      'eur',
      '--link',
      '--json',
    );
    expect(made).toMatchObject({ code: 0, err: '' });
    const out = made.json();
    expect(Object.keys(out).sort()).toEqual(['desk', 'url']);
    expect(out.desk).toEqual({
      id: expect.stringMatching(/^dsk_/),
      slug: 'harbour-joinery',
      name: 'Harbour Joinery',
      timezone: 'Europe/Dublin',
      currency: 'EUR',
    });
    expect(out.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
    const signIn = await redeemSignInLink(store.db, new URL(out.url).searchParams.get('token')!, new Date(TEST_NOW));
    if (!signIn.ok) throw new Error(`the printed link did not sign in: ${signIn.reason}`);
    expect((await deskForSession(store.db, signIn.session, new Date(TEST_NOW)))?.id).toBe(out.desk.id);

    const listed = (await desk(store.target, 'desks', 'list', '--json')).json();
    expect(listed).toContainEqual(expect.objectContaining({ slug: 'harbour-joinery', open_work: 0 }));
    for (const table of ['work', 'arrangements', 'grants', 'api_keys'] as const) {
      const n = await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('desk_id', '=', out.desk.id)
        .executeTakeFirstOrThrow();
      expect(Number(n.n), table).toBe(0);
    }
    const events = await store.db.selectFrom('events').selectAll().where('desk_id', '=', out.desk.id).execute();
    expect(events.map((e) => [e.kind, JSON.parse(e.data).by])).toEqual([['desk_created', 'owner']]);
    // DESK_NOW starts the command's clock at TEST_NOW and lets it run on: the event is stamped
    // from that clock, within the command's own run.
    const stampedAfter = Date.parse(events[0]!.created_at) - Date.parse(TEST_NOW);
    expect(stampedAfter).toBeGreaterThanOrEqual(0);
    expect(stampedAfter).toBeLessThan(60_000);

    const plain = await desk(
      store.target,
      'desks',
      'create',
      'Quay Lettings',
      '--slug',
      'quay-lettings',
      '--timezone',
      'UTC',
      '--currency',
      'GBP',
    );
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/^Created desk quay-lettings \(dsk_\S+\): Quay Lettings, UTC, GBP\. It is empty\.\n/);
    // The hint names the database this desk went into, so it works as printed.
    expect(plain.out).toContain(`\`npx desk owner link --desk quay-lettings --db '${redact(store.target)}'\``);
    expect(plain.out).not.toContain('sign-in?token=');
    const linked = await desk(
      store.target,
      'desks',
      'create',
      'Quay Storage',
      '--slug',
      'quay-storage',
      '--timezone',
      'UTC',
      '--currency',
      'GBP',
      '--link',
      '--port',
      '18555',
    );
    expect(linked.out).toMatch(/within 15 minutes\):\n {2}http:\/\/127\.0\.0\.1:18555\/sign-in\?token=/);

    const before = (await desk(store.target, 'desks', 'list', '--json')).json().length;
    const base = ['desks', 'create', 'Second', '--timezone', 'UTC', '--currency', 'GBP'];
    for (const [args, said] of [
      [[...base, '--slug', 'harbour-joinery'], 'desk: A desk with slug "harbour-joinery" already exists.\n'],
      [
        [...base, '--slug', 'Bad Slug'],
        'desk: Slug "Bad Slug" must be lower-case letters, digits and dashes, starting with a letter or a digit.\n',
      ],
      [
        [...base, '--slug', '-tz5'],
        'desk: Slug "-tz5" must be lower-case letters, digits and dashes, starting with a letter or a digit.\n',
      ],
      [
        ['desks', 'create', 'n'.repeat(201), '--slug', 'long-name', '--timezone', 'UTC', '--currency', 'GBP'],
        "desk: A desk's name is at most 200 characters.\n",
      ],
      [
        ['desks', 'create', 'Second', '--slug', 'second', '--timezone', 'Mars/Base', '--currency', 'GBP'],
        'desk: "Mars/Base" is not a time zone; use an IANA name such as Europe/London.\n',
      ],
      [
        ['desks', 'create', 'Second', '--slug', 'second', '--timezone', 'UTC', '--currency', 'pounds'],
        'desk: Currency "pounds" must be a three-letter code such as GBP.\n',
      ],
      [
        ['desks', 'create', ' ', '--slug', 'second', '--timezone', 'UTC', '--currency', 'GBP'],
        'desk: A desk needs a name, such as the business it runs.\n',
      ],
      [
        ['desks', 'create', ' ', '--slug', 'harbour-joinery', '--timezone', 'Mars/Base', '--currency', 'pounds'],
        'desk: The new desk has 4 mistakes; nothing was made:\n' +
          '  A desk needs a name, such as the business it runs.\n' +
          '  A desk with slug "harbour-joinery" already exists.\n' +
          '  "Mars/Base" is not a time zone; use an IANA name such as Europe/London.\n' +
          '  Currency "pounds" must be a three-letter code such as GBP.\n',
      ],
      [
        ['desks', 'create', 'Second', '--timezone', 'UTC', '--currency', 'GBP'],
        'desk: desks create needs --slug <slug> (short name for commands: lower-case letters, digits and dashes).\n',
      ],
    ] as const) {
      const r = await desk(store.target, ...args);
      expect({ code: r.code, out: r.out, err: r.err }).toEqual({ code: 1, out: '', err: said });
    }
    expect((await desk(store.target, 'desks', 'list', '--json')).json()).toHaveLength(before);
  });
});
