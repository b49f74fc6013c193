import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskClient, DeskApiError, type AnswerInfo, type DeskClient } from 'desk-client';
import { addDays, dateIn } from '../../../src/domain/dates.ts';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeWork } from '../../../test/helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../../../test/helpers/smtp.ts';
import { connectMailbox, makeArrangement } from '../../../test/http/writes-helpers.ts';
import { serve, type Served } from './server.ts';

// Every method of the client once, over real HTTP against the real app, imported by its package
// name as an integrator would.

describe.each(DIALECTS)('desk-client against the desk ($name)', ({ open }) => {
  let store: TestStore;
  let served: Served;
  let smtp: TestSmtp;
  let d: Awaited<ReturnType<typeof makeDesk>>;
  let client: DeskClient;
  const answers: AnswerInfo[] = [];

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'accept' });
    served = await serve(store, { mailTimeoutMs: 1500 });
    d = await makeDesk(store.db, { name: 'Corner Bakery Ltd', grants: ['reach_out', 'commit'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    client = createDeskClient({ baseUrl: served.baseUrl, key: d.key, onAnswer: (a) => answers.push(a) });
  });
  afterAll(async () => {
    await served.close();
    await smtp.close();
    await store.close();
  });

  it('reads the key, the desk and what the desk is wired into', async () => {
    const me = await client.me();
    expect(me.desk.name).toBe('Corner Bakery Ltd');
    expect(me.key.prefix).toBe(d.prefix);
    expect(Array.isArray((await client.desk()).sections)).toBe(true);
    expect((await client.units()).items).toEqual([]);
    expect((await client.units({ type: 'van' })).items).toEqual([]);
    const connections = await client.connections();
    expect(connections.items.map((c) => c.name)).toEqual(['Office mail']);
    const permissions = await client.permissions();
    expect(Object.keys(permissions.classes).sort()).toEqual(['chase', 'commit', 'file', 'money', 'reach_out', 'sign']);
    const domains = await client.domains();
    expect(domains.items).toEqual([]);
    expect(domains.summary.total).toBe(0);
    expect((await client.watches()).items).toEqual([]);
    expect(answers.every((a) => a.status === 200 && a.requestId !== null && a.idempotencyKey === null)).toBe(true);
  });

  it('lists, walks and reads work, and works a row from draft to sent', async () => {
    const arrangement = await makeArrangement(store.db, d.desk.id);
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask about the lease renewal',
      class: 'reach_out',
      contact_name: 'Priya Shah',
      contact_email: 'priya@landlord.test',
      due_date: '2026-12-01',
      arrangement_id: arrangement.id,
    });
    const other = await makeWork(store.db, d.desk.id, { title: 'Count the float', priority: 10 });

    const page = await client.work.list({ limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.next_cursor).not.toBeNull();
    expect(page.open_total).toBe(2);
    const walked = [];
    for await (const item of client.work.all()) walked.push(item.id);
    expect(walked.sort((a, b) => a - b)).toEqual([row.id, other.id].sort((a, b) => a - b));
    const narrowed = [];
    for await (const item of client.work.all({ arrangement: arrangement.id })) narrowed.push(item.id);
    expect(narrowed).toEqual([row.id]);

    const drafted = await client.work.draft(row.id);
    expect(drafted.drafted).toBe(true);
    if (drafted.drafted) expect(drafted.to).toBe('priya@landlord.test');
    const detail = await client.work.get(row.id);
    expect(detail.work.has_draft).toBe(true);
    expect(detail.messages).toHaveLength(1);

    const done = await client.work.complete(row.id, { note: 'Read and approved.' });
    expect(done).toMatchObject({ id: row.id, status: 'waiting', delivered: true, failed: false });
    expect(smtp.received.filter((m) => m.to.includes('priya@landlord.test'))).toHaveLength(1);
    // Each write carried a key of its own.
    const writeKeys = answers.filter((a) => a.method === 'POST').map((a) => a.idempotencyKey);
    expect(new Set(writeKeys).size).toBe(writeKeys.length);
    expect(writeKeys.every((k) => typeof k === 'string' && k.length > 0)).toBe(true);

    const snoozed = await client.work.snooze(other.id, { days: 5 });
    // An undated row is due `days` after the desk's today, which the pinned clock fixes.
    expect(snoozed).toMatchObject({ id: other.id, due_date: addDays(dateIn(d.desk.timezone, new Date(TEST_NOW)), 5) });
    const closedByHand = await client.work.complete(other.id);
    expect(closedByHand).toMatchObject({ id: other.id, status: 'done', delivered: false });
  });

  it('returns bad news in a 200 as data: a run that needs a person, a draft with nothing to say', async () => {
    const person = await makeWork(store.db, d.desk.id, {
      title: 'Inspect the oven',
      class: 'commit',
      needs_person: 1,
      contact_email: 'oven@example.test',
    });
    const run = await client.work.run(person.id);
    expect(run).toMatchObject({ ok: false, closed: false, activity_id: null });
    const nobody = await makeWork(store.db, d.desk.id, { title: 'Nobody to write to', class: 'reach_out' });
    const draft = await client.work.draft(nobody.id);
    expect(draft.drafted).toBe(false);
    if (!draft.drafted) expect(draft.reason.length).toBeGreaterThan(0);
  });

  it("reads arrangements and adds a note to one, with the caller's own idempotency key", async () => {
    const arrangement = await makeArrangement(store.db, d.desk.id, 'Flour supply');
    const listed = await client.arrangements.list();
    expect(listed.items.map((a) => a.name)).toContain('Flour supply');
    const all = [];
    for await (const a of client.arrangements.all()) all.push(a.id);
    expect(all.sort()).toEqual(listed.items.map((a) => a.id).sort());

    const note = await client.arrangements.addNote(
      arrangement.id,
      { body: 'Called about the March price.', channel: 'call' },
      { idempotencyKey: 'note-flour-1' },
    );
    expect(note).toMatchObject({
      arrangement_id: arrangement.id,
      channel: 'call',
      body: 'Called about the March price.',
    });
    const again = await client.arrangements.addNote(
      arrangement.id,
      { body: 'A different body' },
      { idempotencyKey: 'note-flour-1' },
    );
    expect(again).toEqual(note);
    expect(answers.at(-1)).toMatchObject({ replayed: true, idempotencyKey: 'note-flour-1' });

    // A key in any script is sent as the desk reads it, and replays as any other.
    const first = await client.arrangements.addNote(arrangement.id, { body: 'Ключ.' }, { idempotencyKey: 'ключ-1' });
    const replay = await client.arrangements.addNote(arrangement.id, { body: 'Other.' }, { idempotencyKey: 'ключ-1' });
    expect(replay).toEqual(first);
    const kept = await store.db
      .selectFrom('idempotency')
      .select('key')
      .where('desk_id', '=', d.desk.id)
      .where('key', '=', 'ключ-1')
      .execute();
    expect(kept).toHaveLength(1);
    // One no header can carry is refused before anything is sent.
    const sent = answers.length;
    await expect(
      client.arrangements.addNote(arrangement.id, { body: 'x' }, { idempotencyKey: 'a\nb' }),
    ).rejects.toThrow(TypeError);
    // Nor one HTTP would cut down: spaces only (no key at all), or spaces around it.
    for (const [idempotencyKey, said] of [
      ['   ', /more than spaces/],
      [' same-k', /begins nor ends with a space/],
      ['same-k\t', /begins nor ends with a space/],
    ] as const)
      await expect(client.arrangements.addNote(arrangement.id, { body: 'x' }, { idempotencyKey })).rejects.toThrow(
        said,
      );
    expect(answers.length).toBe(sent);
    // Spaces HTTP keeps (a no-break space) are part of the key as written.
    const noBreak = await client.arrangements.addNote(
      arrangement.id,
      { body: 'Kept.' },
      { idempotencyKey: '\u00a0nb-k' },
    );
    expect(noBreak.body).toBe('Kept.');
  });

  it('asks the desk a question', async () => {
    const answer = await client.chat('what is overdue?');
    expect(answer.question).toBe('what is overdue?');
    expect(answer.timed_out).toBe(false);
    expect(typeof answer.answer).toBe('string');
  });

  it('reads the desk log and the activity record, newest first', async () => {
    const events = await client.events.list({ limit: 2 });
    expect(events.items).toHaveLength(2);
    const allEvents = [];
    for await (const e of client.events.all()) allEvents.push(e);
    expect(allEvents.some((e) => e.kind === 'api_write' && e.message === 'POST /api/v1/chat')).toBe(true);
    expect(allEvents.slice(0, 2)).toEqual(events.items);

    const activity = await client.activity.list({ limit: 1 });
    expect(activity.items).toHaveLength(1);
    const allActivity = [];
    for await (const a of client.activity.all()) allActivity.push(a);
    expect(allActivity.length).toBeGreaterThan(1);
    expect(allActivity[0]).toEqual(activity.items[0]);
  });

  it("throws DeskApiError with the contract's code for a 404, and does not retry it", async () => {
    const before = answers.length;
    const err = await client.work.get(987_654).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeskApiError);
    const apiErr = err as DeskApiError;
    expect(apiErr).toMatchObject({ status: 404, code: 'not_found' });
    expect(apiErr.message.length).toBeGreaterThan(0);
    expect(apiErr.requestId).toBe(answers.at(-1)!.requestId);
    expect(answers.length).toBe(before + 1);

    const wrong = createDeskClient({ baseUrl: served.baseUrl, key: 'not-a-key' });
    await expect(wrong.me()).rejects.toMatchObject({ name: 'DeskApiError', status: 401, code: 'unauthorized' });
  });

  it('throws not_permitted with its details when the desk lacks the grant', async () => {
    const filing = await makeWork(store.db, d.desk.id, {
      title: 'File the return',
      class: 'file',
      contact_email: 'hmrc@example.test',
    });
    const err = await client.work.run(filing.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeskApiError);
    expect(err).toMatchObject({ status: 403, code: 'not_permitted', details: { permission: 'file' } });
    const refused = err as DeskApiError;
    expect(refused.is('not_found')).toBe(false);
    if (!refused.is('not_permitted')) throw new Error('not narrowed');
    // Typed as the contract gives it: `permission` is the row's class, or null.
    const permission: string | null | undefined = refused.details?.permission;
    expect(permission).toBe('file');
  });

  it('says on DeskApiError when the refusal is the stored answer of an earlier call with the same key', async () => {
    const row = await makeWork(store.db, d.desk.id, { title: 'Renew the parking permit' });
    const idempotencyKey = `client-replayed-refusal-${row.id}`;
    const first = await client.work.snooze(row.id, { days: 0 }, { idempotencyKey }).catch((e: unknown) => e);
    expect(first).toMatchObject({ status: 400, code: 'bad_request', replayed: false, idempotencyKey });
    // A good body under the same key still gets the first refusal: the error must say why.
    const again = await client.work.snooze(row.id, { days: 7 }, { idempotencyKey }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(DeskApiError);
    expect(again).toMatchObject({ status: 400, code: 'bad_request', replayed: true, idempotencyKey });
  });
});
