import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { desk, deskWith } from '../helpers/cli.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { addDays } from '../../src/domain/dates.ts';
import { loadConfig, serveCommand } from '../../src/config.ts';
import { demoTip } from '../../src/server.ts';
import { IN_FLIGHT } from '../../src/domain/work/send.ts';
import { makeDraft } from '../helpers/factories.ts';
import { insertActivity } from '../../src/store/repositories/activity.ts';
import { updateWork } from '../../src/store/repositories/work.ts';

// What a newcomer trips on in the owner's command: deleting without asking, a mistyped --db,
// tips that point elsewhere, the API's verbs missing, errors that do not say what to do.

describe.each(DIALECTS)("the owner's first hour ($name)", ({ open }) => {
  let store: TestStore;
  let slug: string;
  const rowId = async (title: string) =>
    (await store.db.selectFrom('work').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    store = await open();
    slug = (await desk(store.target, 'import', path.resolve('example.yaml'), '--json')).json().desk.slug;
  });
  afterAll(async () => {
    await store.close();
  });

  it('desks delete asks at a terminal, takes --yes in scripts, and refuses otherwise', async () => {
    const other = (await desk(store.target, 'demo', '--json')).json().desk.slug;
    const script = await desk(store.target, 'desks', 'delete', other);
    expect(script).toMatchObject({ code: 1, out: '' });
    expect(script.err).toBe(
      `desk: desks delete ${other} needs --yes when not run at a terminal; it deletes the desk and everything on it.\n`,
    );
    const asked: string[] = [];
    const no = await deskWith({ answer: false, asked }, store.target, 'desks', 'delete', other);
    expect(no.code).toBe(1);
    expect(asked).toEqual([`Delete desk ${other} and everything on it? This cannot be undone.`]);
    expect((await desk(store.target, 'desks', 'list', '--json')).json().map((d: { slug: string }) => d.slug)).toContain(
      other,
    );
    expect((await deskWith({ answer: true }, store.target, 'desks', 'delete', other)).code).toBe(0);
    expect(
      (await desk(store.target, 'desks', 'list', '--json')).json().map((d: { slug: string }) => d.slug),
    ).not.toContain(other);
    const again = (await desk(store.target, 'demo', '--json')).json().desk.slug;
    expect((await desk(store.target, 'desks', 'delete', again, '--yes')).code).toBe(0);
  });

  it("the API's verbs: work snooze, draft and complete print what the route returns; work list --status done lists finished rows", async () => {
    const id = await rowId('Renew the food hygiene certificate');
    const before = (await desk(store.target, 'work', 'show', String(id), '--json')).json().work;
    const snoozed = await desk(store.target, 'work', 'snooze', String(id), '--days', '7', '--json');
    expect(snoozed.code).toBe(0);
    expect(snoozed.json()).toEqual({
      id,
      title: 'Renew the food hygiene certificate',
      kind: before.kind,
      status: before.status,
      due_date: addDays(before.due_date, 7),
      priority: before.priority - 5,
    });
    const typo = await desk(store.target, 'work', 'snooze', String(id), '--days', '0');
    expect(typo.err).toBe('desk: --days must be a whole number from 1 to 365, not "0".\n');
    const drafted = await desk(store.target, 'work', 'draft', String(id), '--json');
    expect(Object.keys(drafted.json())).toContain('drafted');
    // A declined draft is news a script must be able to see: it exits 1.
    expect(drafted.code).toBe(drafted.json().drafted ? 0 : 1);
    const done = await desk(store.target, 'work', 'complete', String(id), '--note', 'Renewed at the counter', '--json');
    expect(done.json()).toMatchObject({ id, failed: drafted.json().drafted === true });
    if (drafted.json().drafted) return; // the example has no mailbox: the send fails honestly
    expect(done.json().status).toBe('done');
    const finished = (await desk(store.target, 'work', 'list', '--desk', slug, '--status', 'done', '--json')).json();
    expect(finished.items.map((i: { id: number }) => i.id)).toContain(id);
  });

  it('work complete on a row with nothing to send closes it, and list --status done shows it', async () => {
    const added = (
      await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'Sweep the yard', '--json')
    ).json();
    const done = await desk(store.target, 'work', 'complete', String(added.id), '--note', 'Swept');
    expect(done).toMatchObject({ code: 0 });
    expect(done.out).toBe(
      `#${added.id} is done. There was no prepared message; the work was recorded as done by hand.\n`,
    );
    const finished = (await desk(store.target, 'work', 'list', '--desk', slug, '--status', 'done', '--json')).json();
    expect(finished.items.map((i: { id: number }) => i.id)).toContain(added.id);
    expect(
      (await desk(store.target, 'work', 'list', '--desk', slug, '--status', 'closed', '--json'))
        .json()
        .items.map((i: { id: number }) => i.id),
    ).not.toContain(added.id);
  });

  it('work list --status done narrows by --kind, and says when --limit cut the list short', async () => {
    const add = async (title: string, kind: string) => {
      const r = (
        await desk(store.target, 'work', 'add', '--desk', slug, '--title', title, '--kind', kind, '--json')
      ).json();
      await desk(store.target, 'work', 'complete', String(r.id));
      return r.id as number;
    };
    const hedge = await add('Trim the hedge', 'garden_only');
    const lawn = await add('Mow the lawn', 'garden_only');
    const list = (...more: string[]) => desk(store.target, 'work', 'list', '--desk', slug, '--status', 'done', ...more);
    const garden = (await list('--kind', 'garden_only', '--json')).json();
    expect(garden.items.map((i: { id: number }) => i.id).sort()).toEqual([hedge, lawn].sort());
    expect(garden.more).toBe(false);
    expect((await list('--kind', 'no_such_kind', '--json')).json()).toEqual({ items: [], more: false });
    const one = await list('--kind', 'garden_only', '--limit', '1');
    expect(one.out.trimEnd().split('\n').at(-1)).toBe(
      'The newest 1 row done; there are more. --all shows up to 10,000.',
    );
    expect((await list('--kind', 'garden_only', '--limit', '1', '--json')).json().more).toBe(true);
  });

  it('work complete exits 1 when it did nothing: another send on the row under way, or the row closed', async () => {
    const added = (
      await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'Pay the gas bill', '--json')
    ).json();
    const deskId = (
      await store.db.selectFrom('work').select('desk_id').where('id', '=', added.id).executeTakeFirstOrThrow()
    ).desk_id;
    // Another call claimed the row's message a moment ago and is still waiting on the mail server.
    const m = await makeDraft(store.db, deskId, added.id, { to: 'gas@supplier.test', status: 'approved' });
    await store.db.updateTable('activity').set({ approved_at: TEST_NOW }).where('id', '=', m.id).execute();
    const busy = await desk(store.target, 'work', 'complete', String(added.id));
    expect(busy).toMatchObject({ code: 1, err: '' });
    expect(busy.out).toBe(`#${added.id} is open. ${IN_FLIGHT}\n`);
    expect((await desk(store.target, 'work', 'show', String(added.id), '--json')).json().work.status).toBe('open');

    const closed = (await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'Old errand', '--json')).json();
    expect((await desk(store.target, 'work', 'close', String(closed.id))).code).toBe(0);
    const again = await desk(store.target, 'work', 'complete', String(closed.id), '--json');
    expect(again.code).toBe(1);
    expect(again.json()).toMatchObject({ id: closed.id, status: 'closed', failed: false, delivered: false });
  });

  it("--json errors print the API's error envelope on stdout and exit 1", async () => {
    const missing = await desk(store.target, 'work', 'show', '99999999', '--json');
    expect(missing).toMatchObject({ code: 1, err: '' });
    expect(missing.json()).toEqual({
      error: {
        code: 'not_found',
        message: "No work item 99999999 in this database. `desk work list --desk SLUG` shows a desk's rows.",
      },
    });
    const usage = await desk(store.target, 'work', 'add', '--desk', slug, '--json');
    expect(usage.json()).toEqual({
      error: { code: 'bad_request', message: 'work add needs --title, such as --title "Renew the alarm contract".' },
    });
    const flag = await desk(store.target, 'desks', 'list', '--colour', '--json');
    expect(flag.code).toBe(1);
    expect(flag.json()).toEqual({ error: { code: 'bad_request', message: "unknown option '--colour'" } });
  });

  it('messages name the flag typed, and a row not granted names the command that grants it', async () => {
    const id = await rowId('Renew the food hygiene certificate');
    expect((await desk(store.target, 'work', 'edit', String(id), '--chase-after', '0')).err).toBe(
      'desk: --chase-after must be a whole number from 1 to 365, not "0".\n',
    );
    expect((await desk(store.target, 'work', 'edit', String(id), '--max-chases', '101')).err).toBe(
      'desk: --max-chases must be a whole number from 0 to 100, not "101".\n',
    );
    const edited = await desk(store.target, 'work', 'edit', String(id), '--max-chases', '0', '--json');
    expect(edited.code).toBe(0);
    const stored = await store.db
      .selectFrom('work')
      .select('max_chases')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.max_chases).toBe(0);
    const filed = (
      await desk(
        store.target,
        'work',
        'add',
        '--desk',
        slug,
        '--title',
        'File the accounts',
        '--class',
        'file',
        '--json',
      )
    ).json();
    const run = await desk(store.target, 'run', String(filed.id));
    expect(run.err.split('\n').slice(1).join('\n')).toBe(
      `desk: The desk has not been granted "file" work. The owner grants it with: desk grants set --desk ${slug} file\n`,
    );
    const paid = (
      await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'Pay the rent', '--class', 'money', '--json')
    ).json();
    expect((await desk(store.target, 'run', String(paid.id))).err.split('\n').slice(1).join('\n')).toBe(
      'desk: This row is "money" work, which can never be granted: a person does it.\n',
    );
  });

  it('an assigned row says so in label and hint alike, and work show gives the assignee and contact', async () => {
    const added = (
      await desk(
        store.target,
        'work',
        'add',
        '--desk',
        slug,
        '--title',
        'Service the oven',
        '--contact-name',
        'Ovenworks',
        '--contact-email',
        'help@ovenworks.test',
        '--json',
      )
    ).json();
    const given = (await desk(store.target, 'work', 'assign', String(added.id), '--to', 'Sam', '--json')).json();
    expect(given.action.label).toBe('Check with Sam');
    expect(given.action.hint).toMatch(/^It is with Sam;/);
    const shown = await desk(store.target, 'work', 'show', String(added.id), '--json');
    expect(shown.json().work).toMatchObject({
      assignee: 'Sam',
      contact: { name: 'Ovenworks', email: 'help@ovenworks.test' },
    });
    const human = (await desk(store.target, 'work', 'show', String(added.id))).out;
    expect(human).toContain('  assigned to Sam\n');
    expect(human).toContain('  contact Ovenworks <help@ovenworks.test>\n');
    const help = (await desk(store.target, 'work', 'edit', '--help')).out.replace(/\s+/g, ' ');
    expect(help).not.toMatch(/\(default (general|50|7)\)/);
    expect((await desk(store.target, 'work', 'add', '--help')).out.replace(/\s+/g, ' ')).toContain('(default general)');
  });

  it('keys show the last day the owner gave; counts use one plural rule', async () => {
    const made = await desk(
      store.target,
      'keys',
      'create',
      '--desk',
      slug,
      '--name',
      'zapier',
      '--expires',
      '2027-06-30',
    );
    expect(made.out).toContain('valid through 2027-06-30 (Europe/London)');
    expect(made.out).not.toContain('T23:00');
    const list = (await desk(store.target, 'keys', 'list', '--desk', slug)).out;
    expect(list).toContain('2027-06-30');
    expect(list).not.toContain('2027-06-30T');
    const { writeFileSync } = await import('node:fs');
    const dir = mkdtempSync(path.join(tmpdir(), 'desk-one-'));
    try {
      const file = path.join(dir, 'one.yaml');
      writeFileSync(
        file,
        'desk: { name: One Shop, slug: one-shop, timezone: UTC, currency: GBP }\nunits: [{ ref: u1, type: site, name: Shop }]\narrangements: [{ ref: a1, name: Lease, kind: lease }]\n',
      );
      const imported = await desk(store.target, 'import', file);
      expect(imported.err).toBe('');
      expect(imported.code).toBe(0);
      expect(imported.out).toContain('0 work items, 1 arrangement, 1 unit, 0 watches, 0 domains, 0 connections.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("work show prints a reply's words, and handing back a row that holds one says it is still to read", async () => {
    const added = (
      await desk(store.target, 'work', 'add', '--desk', slug, '--title', 'Ask Lee about the van', '--json')
    ).json();
    const deskId = (
      await store.db.selectFrom('work').select('desk_id').where('id', '=', added.id).executeTakeFirstOrThrow()
    ).desk_id;
    // A reply as a mail pass records one: the message on the row, and the row's mark.
    await insertActivity(store.db, {
      deskId,
      kind: 'message',
      channel: 'email',
      direction: 'inbound',
      workId: added.id,
      subject: 'Re: The van',
      body: 'Yes, Thursday.\nKeys at the front desk.',
      status: 'received',
      actor: 'Lee Van',
      at: TEST_NOW,
      sentAt: TEST_NOW,
    });
    await updateWork(store.db, deskId, added.id, { replied_by: 'Lee Van', replied_at: TEST_NOW });
    const shown = (await desk(store.target, 'work', 'show', String(added.id))).out;
    expect(shown).toContain(
      'received email from Lee Van: Re: The van\n    Yes, Thursday.\n    Keys at the front desk.\n',
    );
    expect(shown).toContain('next: Read the reply.');
    expect((await desk(store.target, 'work', 'assign', String(added.id), '--to', 'Sam')).code).toBe(0);
    const back = await desk(store.target, 'work', 'assign', String(added.id), '--clear');
    expect(back.out).toContain(
      `#${added.id} is given to nobody; it still holds Lee Van's reply to read (desk work show ${added.id}).`,
    );
    // Handed back again, nothing is changed (P-cli-28), and the reply is still said to be there.
    const again = await desk(store.target, 'work', 'assign', String(added.id), '--clear');
    expect(again).toMatchObject({ code: 0, err: '' });
    expect(again.out).toContain(
      `#${added.id} is already given to nobody; nothing was changed. It still holds Lee Van's reply to read (desk work show ${added.id}).`,
    );
  });
});

describe('a missing database, and tips that work as printed', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'desk-nodb-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('only commands that bring data in make a database; the rest refuse a path that names none', async () => {
    const typo = path.join(dir, 'dtaa', 'desk.db');
    for (const args of [
      ['desks', 'list'],
      ['work', 'list', '--desk', 'x'],
      ['keys', 'list', '--desk', 'x'],
      ['watches', 'run'],
    ]) {
      const r = await desk(typo, ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toBe(
        `desk: No database at ${typo} (DESK_DATABASE_URL or --db). Start the server, or run desk demo or desk import, to make one.\n`,
      );
    }
    expect(existsSync(path.join(dir, 'dtaa'))).toBe(false);
    const demo = await desk(typo, 'demo');
    expect(demo.code).toBe(0);
    expect(existsSync(typo)).toBe(true);
    expect((await desk(typo, 'desks', 'list')).code).toBe(0);
  });

  it("desk demo's curl line names the port in use; the first-start tip names the database and port", async () => {
    const db = path.join(dir, 'tips.db');
    const viaEnv = await deskWith({ env: { DESK_PORT: '18080' } }, db, 'demo');
    expect(viaEnv.out).toContain('http://127.0.0.1:18080/api/v1/me');
    const viaFlag = await desk(db, 'demo', '--port', '18081');
    expect(viaFlag.out).toContain('http://127.0.0.1:18081/api/v1/me');
    // `npm start` serves ./data/desk.db, not this one: the tip starts the server on it, on that port.
    expect(viaFlag.out).toContain(`With the server running (npx desk serve --db '${db}' --port 18081): curl`);
    // On the default database the tip is `npm start`, told the port as the README tells it.
    expect(serveCommand(loadConfig({}, { port: 19100 }))).toBe('npm start -- --port 19100');
    expect(serveCommand(loadConfig({}))).toBe('npm start');
    // desk import prints the same line for the key it makes, on the port it is told.
    const { writeFileSync } = await import('node:fs');
    const file = path.join(dir, 'tips-import.yaml');
    writeFileSync(file, 'desk: { name: Tip Shop, slug: tip-shop, timezone: UTC }\n');
    const imported = await desk(path.join(dir, 'tips-import.db'), 'import', file, '--key', 'ci', '--port', '18082');
    expect(imported.code).toBe(0);
    expect(imported.out).toMatch(/Try it: .*http:\/\/127\.0\.0\.1:18082\/api\/v1\/me/);
    expect(demoTip(loadConfig({}), 8080)).toBe('Another key any time: npx desk demo');
    expect(demoTip(loadConfig({ DESK_DATABASE_URL: '/srv/desk.db' }), 18080)).toBe(
      "Another key any time: npx desk demo --db '/srv/desk.db' --port 18080",
    );
    // A password is neither printed nor hidden as *** that would be typed back: the variable names it.
    expect(demoTip(loadConfig({ DESK_DATABASE_URL: 'postgres://desk:pw@db/desk' }), 8080)).toBe(
      'Another key any time: npx desk demo --db "$DESK_DATABASE_URL"',
    );
    expect(demoTip(loadConfig({ DESK_DATABASE_URL: 'postgres://desk@db/desk' }), 8080)).toBe(
      "Another key any time: npx desk demo --db 'postgres://desk@db/desk'",
    );
    void TEST_NOW;
  });
});
