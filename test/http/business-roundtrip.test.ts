import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { exportDesk } from '../../src/domain/business/export.ts';
import { importBusinessText } from '../../src/domain/business/import.ts';
import { deskContext, type DeskContext } from '../../src/domain/context.ts';
import { addWork } from '../../src/domain/work/add.ts';
import { closeWork } from '../../src/domain/work/status.ts';
import { listFinished } from '../../src/domain/work/finished.ts';
import { createKey } from '../../src/domain/keys/create.ts';
import { findDeskByRef } from '../../src/store/repositories/desks.ts';
import { allWorkOf } from '../../src/store/repositories/business.ts';
import { moveWork, updateWork } from '../../src/store/repositories/work.ts';
import { addDays, dateOfInstant, midnightIn } from '../../src/domain/dates.ts';
import { harness, type Harness } from '../helpers/app.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { EVERYTHING, SECRETS } from '../helpers/business-file.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';

/** The file as the tests read it: any shape, as JSON.parse gives. */
const parse = (text: string): any => load(text);

// A desk with every kind of entry goes out as a business file and comes back in as a new desk;
// the API then tells the two apart by nothing but ids, slugs and the times things were written.

/** What the API says with ids, slugs and write times taken out: what must survive the trip. */
function bare(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(bare);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !(k === 'id' || k === 'slug' || k.endsWith('_id') || k.endsWith('_at') || k === 'next_cursor'))
      .map(([k, x]) => [k, bare(x)]),
  );
}

describe.each(DIALECTS)('the business file both ways ($name)', ({ open }) => {
  let store: TestStore;
  let h: Harness;
  let source: DeskContext;
  let sourceKey: string;
  let text: string;
  let copyKey: string;
  let copyId: string;

  beforeAll(async () => {
    store = await open();
    h = await harness(store);
    const r = await importBusinessText(store.db, EVERYTHING, { now: h.clock.now(), keyName: 'source' });
    sourceKey = r.key!.key;
    source = deskContext(h.deps, (await findDeskByRef(store.db, r.desk.id))!, { type: 'owner', name: 'owner' });
    // Rows the owner made and closed after the import, not only rows the file brought.
    await addWork(source, { title: 'Chase the window cleaner', class: 'chase', waiting_on: 'Bright Windows' });
    const rows = await allWorkOf(store.db, source.desk.id);
    await closeWork(source, rows.find((w) => w.title === 'Renew the hygiene certificate')!.id, { note: 'Done early' });
    // Sam has had every chase the row allows, and Fresh Farm's reply waits to be read.
    const oven = rows.find((w) => w.title === 'Get the oven repair quote')!;
    await updateWork(store.db, source.desk.id, oven.id, { chases: oven.max_chases });
    const slot = rows.find((w) => w.title === 'Confirm the delivery slot')!;
    const repliedAt = new Date(h.clock.now().getTime() - 3_600_000).toISOString();
    await moveWork(store.db, source.desk.id, slot.id, 'waiting', 'open', {
      waiting_on: null,
      waiting_since: null,
      replied_by: 'Fresh Farm',
      replied_at: repliedAt,
    });

    text = (await exportDesk(source)).text;
    const copy = await importBusinessText(store.db, text, { now: h.clock.now(), slug: 'round-trip-copy' });
    copyId = copy.desk.id;
    copyKey = (await createKey(store.db, { deskId: copyId, name: 'copy', now: h.clock.now().toISOString() })).key;
  });
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it('holds no secret and no key, and says in a comment which secrets it left out', () => {
    for (const s of SECRETS) expect(text).not.toContain(s);
    expect(text).not.toContain(sourceKey);
    expect(text).not.toContain(sourceKey.slice(0, 12));
    expect(text).toMatch(
      /^# Secrets were left out: "Shop mailbox" \(pass\); "Tax portal" \(password\); "Bank feed" \(api_token, pin, accounts\[0\]\.password\)\./m,
    );
    const doc = parse(text);
    expect(doc.connections.map((c: { config: object }) => c.config)).toEqual([
      { host: '127.0.0.1', port: 2525, secure: false, starttls: false, user: 'shop', from: 'Cafe <owner@cafe.test>' },
      { username: 'cafe' },
      { region: 'us', accounts: [{ user: 'cafe' }, { user: 'spare' }] },
    ]);
  });

  it('writes every date absolute and keeps the desk timezone', () => {
    const doc = parse(text);
    expect(doc.desk).toMatchObject({ timezone: 'America/New_York', currency: 'USD', broker: 'Sedo' });
    expect(text).not.toMatch(/"?[+-]\d+d"?$/m);
    expect(text).not.toMatch(/: today$/m);
    // The row added by the owner went waiting at a moment; the file gives that moment's date on the desk's calendar.
    const added = doc.work.find((w: { title: string }) => w.title === 'Chase the window cleaner');
    expect(added.waiting_since).toBe(source.today());
  });

  it('reads back into a desk the API cannot tell from the first', async () => {
    for (const path of [
      '/work?limit=200',
      '/arrangements',
      '/units',
      '/watches',
      '/domains',
      '/permissions',
      '/connections',
      '/desk',
    ]) {
      const a = await h.call('GET', `/api/v1${path}`, { key: sourceKey });
      const b = await h.call('GET', `/api/v1${path}`, { key: copyKey });
      expect(a.statusCode, path).toBe(200);
      expect(b.statusCode, path).toBe(200);
      expect(bare(b.json().data), path).toEqual(bare(a.json().data));
    }
    const meA = (await h.call('GET', '/api/v1/me', { key: sourceKey })).json().data;
    const meB = (await h.call('GET', '/api/v1/me', { key: copyKey })).json().data;
    expect(bare(meB.desk)).toEqual(bare(meA.desk));
    expect(meB.work).toEqual(meA.work);
  });

  it('brings back the finished rows and every row in the same order, status and messages', async () => {
    const detail = async (key: string, deskId: string) => {
      const out = [];
      for (const w of await allWorkOf(store.db, deskId)) {
        const r = await h.call('GET', `/api/v1/work/${w.id}`, { key });
        expect(r.statusCode).toBe(200);
        // The timeline is the row's history on this desk; a business file starts a new one.
        const { timeline: _history, ...rest } = r.json().data;
        out.push(bare(rest));
      }
      return out;
    };
    const a = await detail(sourceKey, source.desk.id);
    const b = await detail(copyKey, copyId);
    expect(a).toHaveLength(9);
    expect(b).toEqual(a);
    const statuses = async (deskId: string) => (await allWorkOf(store.db, deskId)).map((w) => w.status);
    expect(await statuses(copyId)).toEqual(await statuses(source.desk.id));
    expect((await statuses(copyId)).sort()).toEqual([
      'closed',
      'closed',
      'done',
      'in_progress',
      'open',
      'open',
      'open',
      'open',
      'open',
    ]);
    // Messages came back with their status, subject, body and address.
    const flour = b.find((x) => (x as { work: { title: string } }).work.title === 'Pay the flour invoice') as {
      messages: Array<{ status: string; subject: string; to: string | null }>;
    };
    expect(flour.messages.map((m) => [m.status, m.subject])).toEqual(
      expect.arrayContaining([
        ['drafted', 'Invoice 4471'],
        ['sent', 'Invoice 4470'],
      ]),
    );
  });

  it("keeps the desk's rails, so a paused desk's copy is paused, and each row's max_chases", async () => {
    const copy = (await findDeskByRef(store.db, copyId))!;
    expect(copy).toMatchObject({ hours: 'mon-sat 08:00-18:00', daily_cap: 7, act_within_days: 10, paused: 1 });
    const oven = (await allWorkOf(store.db, copyId)).find((w) => w.title === 'Get the oven repair quote')!;
    expect(oven.max_chases).toBe(9);
    expect(parse(text).connections[2].config.accounts).toEqual([{ user: 'cafe' }, { user: 'spare' }]);
  });

  it('keeps the chases sent and a reply waiting to be read, so the copy writes to nobody the first would not', async () => {
    const row = (title: string) => parse(text).work.find((w: { title: string }) => w.title === title);
    expect(row('Get the oven repair quote')).toMatchObject({ max_chases: 9, chases: 9 });
    expect(row('Confirm the delivery slot')).toMatchObject({
      replied_by: 'Fresh Farm',
      replied_at: dateOfInstant(source.desk.timezone, new Date(h.clock.now().getTime() - 3_600_000).toISOString()),
    });
    expect(row('Confirm the delivery slot').waiting_on).toBeUndefined();
    const actions = async (key: string) =>
      Object.fromEntries(
        (await h.call('GET', '/api/v1/work?limit=200', { key }))
          .json()
          .data.items.map((w: { title: string; action: { label: string } }) => [w.title, w.action.label]),
      );
    const copied = await actions(copyKey);
    expect(copied['Confirm the delivery slot']).toBe('Read the reply');
    expect(copied['Get the oven repair quote']).toBe((await actions(sourceKey))['Get the oven repair quote']);
    const copyRows = await allWorkOf(store.db, copyId);
    expect(copyRows.find((w) => w.title === 'Get the oven repair quote')!.chases).toBe(9);
  });

  it('counts as closed today only the row closed today, on both desks, and writes the day it was closed', async () => {
    const closedToday = async (key: string) =>
      (await h.call('GET', '/api/v1/me', { key })).json().data.work.closed_today;
    // The file's own finished rows say no day; the row closed after the import says today.
    const finished = parse(text).work.filter((w: { status?: string }) => w.status === 'done' || w.status === 'closed');
    expect(finished.length).toBe(3);
    expect(finished.map((w: { title: string; closed_at?: string }) => [w.title, w.closed_at ?? null])).toEqual(
      expect.arrayContaining([
        ['Renew the hygiene certificate', dateOfInstant(source.desk.timezone, h.clock.now().toISOString())],
      ]),
    );
    expect(finished.filter((w: { closed_at?: string }) => w.closed_at !== undefined)).toHaveLength(1);
    expect(await closedToday(sourceKey)).toBe(1);
    expect(await closedToday(copyKey)).toBe(1);
    // The look back lists the row with a day before the file's closed row, which has none.
    const closed = (await listFinished(source, 'closed', 10)).items.map((w) => w.title);
    expect(closed).toHaveLength(2);
    expect(closed[0]).toBe('Renew the hygiene certificate');
  });

  it('writes the day each sent message went, and a copy keeps it: the first moment of a past day, the last of a day ended within 24 hours, the import itself for today', async () => {
    const today = dateOfInstant(source.desk.timezone, h.clock.now().toISOString());
    const sent = parse(text).work.flatMap((w: { messages?: Array<{ status: string; sent_at?: string }> }) =>
      (w.messages ?? []).filter((m) => m.status === 'sent'),
    );
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.map((m: { sent_at?: string }) => m.sent_at)).toEqual(sent.map(() => today));

    const file = `desk: { name: Sent Cafe, slug: sent-cafe, timezone: ${source.desk.timezone} }
work:
  - { title: Pay the flour invoice, messages: [{ status: sent, body: Paid., to: a@mill.test, sent_at: "-3d" }, { status: sent, body: Paid again., to: a@mill.test, sent_at: today }] }
  - { title: Ask the mill, messages: [{ status: sent, body: Asked., to: b@mill.test, sent_at: "-1d" }] }
`;
    const r = await importBusinessText(store.db, file, { now: h.clock.now() });
    const went = await store.db
      .selectFrom('activity')
      .select(['body', 'sent_at'])
      .where('desk_id', '=', r.desk.id)
      .where('kind', '=', 'message')
      .orderBy('id')
      .execute();
    expect(went).toEqual([
      { body: 'Paid.', sent_at: midnightIn(source.desk.timezone, addDays(today, -3)).toISOString() },
      { body: 'Paid again.', sent_at: h.clock.now().toISOString() },
      // Sent yesterday, it may have gone a minute before midnight: the address rests until then.
      { body: 'Asked.', sent_at: new Date(midnightIn(source.desk.timezone, today).getTime() - 1).toISOString() },
    ]);
  });

  it('writes the same file again from the copy, but for its slug and the secrets it no longer has', async () => {
    const again = await exportDesk(
      deskContext(h.deps, (await findDeskByRef(store.db, copyId))!, { type: 'owner', name: 'owner' }),
    );
    const body = (t: string) => t.replace(/^#.*\n/gm, '').replace('slug: round-trip-copy', 'slug: round-trip');
    expect(body(again.text)).toBe(body(text));
  });

  it('writes a setting named __proto__ as any other, in YAML and JSON, and leaves out a secret inside it', async () => {
    const file = JSON.stringify({
      desk: { name: 'Odd Names', slug: 'odd-names', timezone: 'Europe/London' },
      connections: [
        {
          provider: 'x',
          name: 'Files',
          category: 'files',
          config: JSON.parse('{"__proto__": {"folder": "in", "password": "hunter2"}}'),
        },
      ],
    });
    const r = await importBusinessText(store.db, file, { now: h.clock.now(), source: 'odd.json' });
    const ctx = deskContext(h.deps, (await findDeskByRef(store.db, r.desk.id))!, { type: 'owner', name: 'owner' });
    for (const format of ['yaml', 'json'] as const) {
      const out = await exportDesk(ctx, format);
      const [connection] = (format === 'json' ? JSON.parse(out.text) : parse(out.text)).connections;
      expect(Object.getOwnPropertyNames(connection.config), format).toEqual(['__proto__']);
      const inner = Object.getOwnPropertyDescriptor(connection.config, '__proto__')?.value;
      expect(Object.entries(inner), format).toEqual([['folder', 'in']]);
      expect(out.secretsLeftOut, format).toEqual(['"Files" (__proto__.password)']);
      expect(out.text, format).not.toContain('hunter2');
    }
  });

  it('leaves out what a finished row of an older desk still holds: a message still to go, a reply to read', async () => {
    const { desk } = await makeDesk(store.db);
    const row = await makeWork(store.db, desk.id, {
      title: 'Paid before closing withdrew drafts',
      status: 'done',
      contact_email: 'sam@mill.test',
      closed_at: h.clock.now().toISOString(),
      replied_at: h.clock.now().toISOString(),
    });
    await makeDraft(store.db, desk.id, row.id);
    await makeDraft(store.db, desk.id, row.id, { status: 'sent', body: 'Sent before' });
    const file = await exportDesk(deskContext(h.deps, desk, { type: 'owner', name: 'owner' }));
    const [exported] = parse(file.text).work;
    expect(exported).toMatchObject({
      title: row.title,
      status: 'done',
      messages: [{ status: 'sent', body: 'Sent before' }],
    });
    expect(exported).not.toHaveProperty('replied_at');
    const copy = await importBusinessText(store.db, file.text, { now: h.clock.now(), slug: `${desk.slug}-copy` });
    const [back] = await allWorkOf(store.db, copy.desk.id);
    expect(back).toMatchObject({ title: row.title, status: 'done', replied_at: null });
  });
});
