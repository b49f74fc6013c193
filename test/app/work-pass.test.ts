import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { realEngine } from '../../src/container.ts';
import { chromiumAvailable } from '../../src/adapters/chromium/runner.ts';
import { FixedClock } from '../../src/domain/clock.ts';
import { deskContext, type Deps } from '../../src/domain/context.ts';
import { addDays, dateIn } from '../../src/domain/dates.ts';
import { writeRails } from '../../src/domain/desks/rails.ts';
import { setGrant } from '../../src/domain/grants/manage.ts';
import { runWorkPass, type WorkPassResult } from '../../src/app/work/pass.ts';
import { DESK_ACTOR, passDesk, type PassReading } from '../../src/domain/work/pass.ts';
import { PassTurns } from '../../src/domain/work/pass-turns.ts';
import { SendHold } from '../../src/domain/work/send-hold.ts';
import { testMailbox } from '../../src/domain/desks/test-mailbox.ts';
import { connectionsWithConfig } from '../../src/store/repositories/connections.ts';
import { toWorkItem } from '../../src/domain/work/derive.ts';
import { draftWork } from '../../src/domain/work/draft.ts';
import { closeWork } from '../../src/domain/work/status.ts';
import { editWork } from '../../src/domain/work/edit.ts';
import { NO_BROWSER, NO_MAILBOX_OWN } from '../../src/domain/work/own.ts';
import { ownNext } from '../../src/domain/work/own-next.ts';
import { runWork } from '../../src/domain/work/run.ts';
import { claimDraft, draftOn } from '../../src/store/repositories/activity.ts';
import { SEND_NOT_KNOWN, sendStaleAt } from '../../src/domain/work/unsettled.ts';
import { findWork, moveWork, rowsWithDrafts } from '../../src/store/repositories/work.ts';
import { insertRun } from '../../src/store/repositories/runs.ts';
import type { WorkRow } from '../../src/store/schema.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { DIALECTS, reopenStore, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork, makeWorkMany, type WorkOver } from '../helpers/factories.ts';
import { racePasses } from '../helpers/racers.ts';
import { startPortal, type Portal } from '../helpers/portal.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { connectMailbox, eventsOf, messagesOf, timelineOf } from '../http/writes-helpers.ts';
import { makeLoginConnection, makePlaybook, vatSteps } from '../http/run-helpers.ts';

// The desk working its list on its own (issue 17): a real SMTP server, real Chromium for the
// playbook row, and an injected clock. Expected dates are derived from TEST_NOW.

const CHROMIUM = process.env.DESK_CHROMIUM_PATH || '/usr/bin/chromium';
const browser = chromiumAvailable(CHROMIUM);
const TODAY = dateIn('UTC', new Date(TEST_NOW));
const DAY = 24 * 3600_000;
const HOUR = 3600_000;

describe.each(DIALECTS)('the work pass ($name)', ({ name, open }) => {
  let store: TestStore;
  let smtp: TestSmtp;
  let portal: Portal;
  let clock: FixedClock;
  let deps: Deps;

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer();
    portal = await startPortal();
    const config = loadConfig({ DESK_DATABASE_URL: store.target }, { chromiumPath: CHROMIUM });
    clock = new FixedClock(new Date(TEST_NOW));
    deps = { store, clock, config, engine: realEngine(config) };
  });
  afterAll(async () => {
    await smtp?.close();
    await portal?.close();
    await store?.close();
  });

  async function desk(grants = ['reach_out', 'chase', 'file'], hours = 'always') {
    const d = await makeDesk(store.db, { grants });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    await writeRails(store.db, d.desk.id, { hours });
    return d;
  }
  /** A desk whose mailbox points at a port where a mail server was and is no more. */
  async function deskWithServerGone(grant: string, dailyCap?: number) {
    const d = await makeDesk(store.db, { grants: [grant] });
    const gone = await startSmtpServer();
    const port = gone.port;
    await gone.close();
    await connectMailbox(store.db, d.desk.id, port);
    await writeRails(store.db, d.desk.id, { hours: 'always', ...(dailyCap ? { daily_cap: dailyCap } : {}) });
    return { d, port };
  }
  const pass = (slug: string) => runWorkPass(deps, { desk: slug });
  const mailTo = (addr: string) => smtp.received.filter((m) => m.to.includes(addr));
  const row = async (deskId: string, id: number) => (await findWork(store.db, deskId, id)) as WorkRow;

  it('sends, drafts and sends, files in Chromium and chases once; touches nothing else; a second pass sends nothing', async () => {
    clock.set(TEST_NOW);
    const d = await desk();
    const id = d.desk.id;
    const prepared = await makeWork(store.db, id, {
      title: 'Ask about the winter opening hours',
      class: 'reach_out',
      due_date: addDays(TODAY, 3),
      contact_name: 'Lee Park',
      contact_email: 'lee@pass.test',
    });
    await makeDraft(store.db, id, prepared.id, { subject: 'Winter hours', to: 'lee@pass.test' });
    const toDraft = await makeWork(store.db, id, {
      title: 'Ask the window cleaner for a winter quote',
      class: 'reach_out',
      due_date: addDays(TODAY, 14),
      contact_name: 'Ana Clear',
      contact_email: 'ana@pass.test',
    });
    const quiet = await makeWork(store.db, id, {
      title: 'Get the oven repair quote',
      class: 'reach_out',
      status: 'waiting',
      due_date: addDays(TODAY, 2),
      contact_name: 'Sam Oven',
      contact_email: 'sam@pass.test',
      waiting_on: 'Sam Oven',
      waiting_since: addDays(TODAY, -12),
    });
    const earlier = await makeDraft(store.db, id, quiet.id, { subject: 'Oven repair quote', to: 'sam@pass.test' });
    await store.db
      .updateTable('activity')
      .set({ status: 'sent', sent_at: `${addDays(TODAY, -12)}T09:00:00.000Z`, message_id: '<first.oven@pass.test>' })
      .where('id', '=', earlier.id)
      .execute();
    let filed: WorkRow | null = null;
    if (browser) {
      const conn = await makeLoginConnection(store.db, id);
      const pb = await makePlaybook(store.db, id, 'file-vat-return', vatSteps(portal.url), conn.id);
      filed = await makeWork(store.db, id, {
        title: 'File VAT return',
        class: 'file',
        due_date: addDays(TODAY, -1),
        playbook_id: pb.id,
      });
    }
    const untouched = [
      await makeWork(store.db, id, { title: 'Pay the flour invoice', class: 'money', contact_email: 'm@pass.test' }),
      await makeWork(store.db, id, { title: 'Sign the lease', class: 'sign', contact_email: 's@pass.test' }),
      await makeWork(store.db, id, { title: 'Unclassified', class: null, contact_email: 'u@pass.test' }),
      await makeWork(store.db, id, { title: 'Not granted', class: 'commit', contact_email: 'c@pass.test' }),
      await makeWork(store.db, id, {
        title: 'Failed before',
        class: 'reach_out',
        contact_email: 'f@pass.test',
        last_error: 'The mail server refused it.',
      }),
      await makeWork(store.db, id, {
        title: 'A person does this',
        class: 'reach_out',
        contact_email: 'p@pass.test',
        needs_person: 1,
      }),
      await makeWork(store.db, id, {
        title: 'Not due yet',
        class: 'reach_out',
        contact_email: 'n@pass.test',
        due_date: addDays(TODAY, 15),
      }),
      await makeWork(store.db, id, {
        title: 'Money, waiting long',
        class: 'money',
        status: 'waiting',
        contact_email: 'mw@pass.test',
        waiting_on: 'Mill Co',
        waiting_since: addDays(TODAY, -30),
      }),
    ];
    await makeDraft(store.db, id, untouched[0]!.id, { to: 'm@pass.test' });
    const before = smtp.received.length;
    const untouchedBefore = await Promise.all(untouched.map((r) => row(id, r.id)));

    const first = await pass(d.desk.slug);
    const [result] = first.desks;
    expect(result).toMatchObject({ state: 'acted', faults: [] });
    const actedOn = result!.acts.map((a) => [a.work_id, a.as, a.ok]);
    expect(actedOn).toEqual(
      expect.arrayContaining([
        [prepared.id, 'run', true],
        [toDraft.id, 'run', true],
        [quiet.id, 'chase', true],
        ...(filed ? [[filed.id, 'run', true]] : []),
      ]),
    );
    expect(result!.acts).toHaveLength(filed ? 4 : 3);

    expect(mailTo('lee@pass.test')).toHaveLength(1);
    expect(mailTo('lee@pass.test')[0]!.raw).toContain('Subject: Winter hours');
    expect(mailTo('ana@pass.test')).toHaveLength(1);
    const chase = mailTo('sam@pass.test');
    expect(chase).toHaveLength(1);
    expect(chase[0]!.raw).toMatch(/^Subject: Re: Oven repair quote$/m);
    expect(chase[0]!.raw).toMatch(/^In-Reply-To: <first\.oven@pass\.test>$/m);
    expect(chase[0]!.raw).toMatch(/^References: <first\.oven@pass\.test>$/m);
    expect(smtp.received.length - before).toBe(3);

    const chased = await row(id, quiet.id);
    expect(chased).toMatchObject({ status: 'waiting', chases: 1, waiting_on: 'Sam Oven', desk_acted_at: TEST_NOW });
    expect(chased.waiting_since).toBe(TEST_NOW);
    expect(await row(id, toDraft.id)).toMatchObject({ status: 'waiting', waiting_on: 'Ana Clear' });
    if (filed) expect(await row(id, filed.id)).toMatchObject({ status: 'done', last_error: null });
    expect(await Promise.all(untouched.map((r) => row(id, r.id)))).toEqual(untouchedBefore);

    // The record: each act by the desk, in the events, the activity and the row's timeline.
    const events = await eventsOf(store.db, id);
    for (const a of result!.acts) {
      const mine = events.filter((e) => e.data.work_id === a.work_id);
      expect(mine.find((e) => e.kind === 'run_started')!.data).toMatchObject({ actor: 'desk', on_own: a.as });
      expect(mine.find((e) => e.kind === 'run_finished')!.data).toMatchObject({ actor: 'desk' });
      expect((await timelineOf(store.db, id, a.work_id)).map((t) => t.kind)).toContain('run_finished');
      expect(a.activity_id).toEqual(expect.any(Number));
    }
    expect(events.filter((e) => e.kind === 'sent').every((e) => e.data.actor === 'desk')).toBe(true);
    expect((await timelineOf(store.db, id, quiet.id)).map((t) => t.text)).toContainEqual(
      expect.stringMatching(/^Chase 1 of 3 sent to Sam Oven/),
    );

    // A second pass, an hour on: nothing new.
    clock.advance(3600_000);
    const second = await pass(d.desk.slug);
    expect(second.desks[0]!.acts).toEqual([]);
    expect(smtp.received.length - before).toBe(3);
  });

  it('sends nothing outside working hours, while paused, or past the daily cap', async () => {
    // TEST_NOW is a Sunday morning in UTC.
    clock.set(TEST_NOW);
    const d = await desk(['reach_out'], 'mon-fri 09:00-17:00');
    const id = d.desk.id;
    for (const n of [1, 2, 3])
      await makeWork(store.db, id, { title: `Write ${n}`, class: 'reach_out', contact_email: `cap${n}@pass.test` });
    const count = () => smtp.received.filter((m) => m.to.some((t) => t.startsWith('cap'))).length;

    expect((await pass(d.desk.slug)).desks[0]).toMatchObject({ state: 'outside_hours', acts: [] });
    await writeRails(store.db, id, { hours: 'always', paused: true });
    expect((await pass(d.desk.slug)).desks[0]).toMatchObject({ state: 'paused', acts: [] });
    expect(count()).toBe(0);

    await writeRails(store.db, id, { paused: false, daily_cap: 2 });
    expect((await pass(d.desk.slug)).desks[0]).toMatchObject({ state: 'cap_reached' });
    expect(count()).toBe(2);
    expect((await pass(d.desk.slug)).desks[0]).toMatchObject({ state: 'cap_reached', acts: [] });
    expect(count()).toBe(2);
    // The next desk-day, the cap starts again.
    clock.advance(DAY);
    expect((await pass(d.desk.slug)).desks[0]!.acts).toHaveLength(1);
    expect(count()).toBe(3);
  });

  it('a pause, or the end of working hours, during a pass stops its next act', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const write = async (deskId: string, prefix: string) => {
      for (const n of [1, 2, 3])
        await makeWork(store.db, deskId, {
          title: `Write ${n}`,
          class: 'reach_out',
          contact_email: `${prefix}${n}@pass.test`,
        });
    };
    const sent = (prefix: string) => smtp.received.filter((m) => m.to.some((t) => t.startsWith(prefix))).length;
    // Each message is answered a second after it arrives: time for the owner to act meanwhile.
    smtp.setMode('slow');
    try {
      await write(d.desk.id, 'mid-pause');
      const paused = pass(d.desk.slug);
      await vi.waitFor(() => expect(sent('mid-pause')).toBe(1), { timeout: 5_000 });
      await writeRails(store.db, d.desk.id, { paused: true });
      expect((await paused).desks[0]).toMatchObject({ state: 'paused', acts: [{ ok: true }] });
      expect(sent('mid-pause')).toBe(1);

      // Hours that end a minute from now: the clock passes their end while the first message goes.
      const end = new Intl.DateTimeFormat('en-GB', {
        timeZone: d.desk.timezone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(clock.now().getTime() + 60_000));
      const late = await desk(['reach_out'], `sun,mon,tue,wed,thu,fri,sat 00:00-${end}`);
      await write(late.desk.id, 'mid-hours');
      const closing = pass(late.desk.slug);
      await vi.waitFor(() => expect(sent('mid-hours')).toBe(1), { timeout: 5_000 });
      clock.advance(120_000);
      expect((await closing).desks[0]).toMatchObject({ state: 'outside_hours', acts: [{ ok: true }] });
      expect(sent('mid-hours')).toBe(1);
    } finally {
      smtp.setMode('accept');
    }
  });

  it('a process that begins to stop ends its pass after the act under way', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    for (const n of [1, 2, 3])
      await makeWork(store.db, d.desk.id, {
        title: `Stop ${n}`,
        class: 'reach_out',
        contact_email: `stop${n}@pass.test`,
      });
    const sent = () => smtp.received.filter((m) => m.to.some((t) => t.startsWith('stop'))).length;
    smtp.setMode('slow');
    try {
      const stopping = new AbortController();
      const passing = runWorkPass(deps, { desk: d.desk.slug, stopping: stopping.signal });
      await vi.waitFor(() => expect(sent()).toBe(1), { timeout: 5_000 });
      stopping.abort();
      expect((await passing).desks[0]).toMatchObject({ state: 'stopped', acts: [{ ok: true }] });
      expect(sent()).toBe(1);
    } finally {
      smtp.setMode('accept');
    }
    // The next pass goes on with the rest.
    expect((await pass(d.desk.slug)).desks[0]!.acts).toHaveLength(2);
  });

  it('ends the runs a stopped process left behind, so their rows need a look rather than stay in progress', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const id = d.desk.id;
    const left = await makeWork(store.db, id, {
      title: 'Left mid-send',
      class: 'reach_out',
      contact_email: 'left@pass.test',
    });
    await makeDraft(store.db, id, left.id, { to: 'left@pass.test', status: 'approved' });
    const fresh = await makeWork(store.db, id, {
      title: 'Sending now',
      class: 'reach_out',
      contact_email: 'now@pass.test',
    });
    // One run began a day ago and its process never came back; another began a moment ago.
    const dayAgo = new Date(clock.now().getTime() - DAY).toISOString();
    for (const [row, at] of [
      [left, dayAgo],
      [fresh, clock.now().toISOString()],
    ] as const) {
      await moveWork(store.db, id, row.id, 'open', 'in_progress');
      const staleAt = new Date(Date.parse(at) + HOUR).toISOString();
      await insertRun(store.db, { deskId: id, workId: row.id, how: 'send', priorStatus: 'open', at, staleAt });
    }

    const r = (await pass(d.desk.slug)).desks[0]!;
    expect(r.acts).toEqual([]);
    expect(mailTo('left@pass.test')).toHaveLength(0);
    const settled = await row(id, left.id);
    expect(settled).toMatchObject({ status: 'open' });
    expect(settled.last_error).toMatch(/whether the message went is not known/);
    expect((await timelineOf(store.db, id, left.id)).map((t) => t.kind)).toContain('run_failed');
    expect((await store.db.selectFrom('runs').select('status').where('work_id', '=', left.id).execute())[0]).toEqual({
      status: 'failed',
    });
    expect(
      toWorkItem({ row: settled, hasDraft: true, grants: new Set(['reach_out']), today: TODAY, timezone: 'UTC' })
        .action,
    ).toMatchObject({ type: 'fix' });
    // The run still under way is left to finish.
    expect(await row(id, fresh.id)).toMatchObject({ status: 'in_progress', last_error: null });
    // And a second pass neither settles it again nor acts on the row that needs a look.
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect((await timelineOf(store.db, id, left.id)).filter((t) => t.kind === 'run_failed')).toHaveLength(1);
  });

  it('judges a run by the time limit of the process that started it, and one from before runs kept theirs by its own', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const id = d.desk.id;
    const [long, legacy] = await Promise.all(
      ['long', 'legacy'].map((name) =>
        makeWork(store.db, id, { title: `Run ${name}`, class: 'reach_out', contact_email: `${name}@pass.test` }),
      ),
    );
    // Two hours in, past this process's limit, but begun by a server allowed three.
    const twoHoursAgo = new Date(clock.now().getTime() - 2 * HOUR).toISOString();
    await moveWork(store.db, id, long!.id, 'open', 'in_progress');
    await insertRun(store.db, {
      deskId: id,
      workId: long!.id,
      how: 'playbook',
      priorStatus: 'open',
      at: twoHoursAgo,
      staleAt: new Date(clock.now().getTime() + HOUR).toISOString(),
    });
    // A run from before runs recorded their own limit, as old.
    await moveWork(store.db, id, legacy!.id, 'open', 'in_progress');
    const old = await insertRun(store.db, {
      deskId: id,
      workId: legacy!.id,
      how: 'playbook',
      priorStatus: 'open',
      at: twoHoursAgo,
      staleAt: twoHoursAgo,
    });
    await store.db.updateTable('runs').set({ stale_at: null }).where('id', '=', old.id).execute();

    await pass(d.desk.slug);
    expect(await row(id, long!.id)).toMatchObject({ status: 'in_progress', last_error: null });
    expect((await row(id, legacy!.id)).last_error).toMatch(/how far it got is not known/);
    // Once its own limit has passed, the pass settles it too.
    clock.set(new Date(clock.now().getTime() + HOUR + 1000).toISOString());
    await pass(d.desk.slug);
    expect((await row(id, long!.id)).last_error).toMatch(/how far it got is not known/);
  });

  it('a message a stopped send left claimed needs a look once no send can be under way, and is not sent again', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const id = d.desk.id;
    const left = await makeWork(store.db, id, {
      title: 'Claimed, then the process ended',
      class: 'reach_out',
      contact_email: 'claimed@pass.test',
    });
    const draft = await makeDraft(store.db, id, left.id, { to: 'claimed@pass.test' });
    // What a complete does before it hands the message over; its process ends there.
    expect(
      await claimDraft(
        store.db,
        id,
        draft.id,
        clock.now().toISOString(),
        sendStaleAt(deps.config, clock.now().toISOString()),
      ),
    ).toBeDefined();

    // While its send could still be under way, the pass leaves the row alone.
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect(await row(id, left.id)).toMatchObject({ last_error: null });

    clock.set(new Date(clock.now().getTime() + deps.config.mailTimeoutMs + 61_000));
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect(mailTo('claimed@pass.test')).toHaveLength(0);
    const settled = await row(id, left.id);
    expect(settled).toMatchObject({ status: 'open', last_error: SEND_NOT_KNOWN });
    const [message] = await messagesOf(store.db, id, left.id);
    expect(message).toMatchObject({ id: draft.id, status: 'approved', failure_reason: SEND_NOT_KNOWN });
    expect((await eventsOf(store.db, id)).find((e) => e.kind === 'send_failed')?.data).toMatchObject({
      activity_id: draft.id,
      outcome_unknown: true,
    });
    expect(
      toWorkItem({ row: settled, hasDraft: false, grants: new Set(['reach_out']), today: TODAY, timezone: 'UTC' })
        .action,
    ).toMatchObject({ type: 'fix' });

    // A day on, the desk still does not write again on its own, and says it once.
    clock.set(new Date(clock.now().getTime() + DAY));
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect(mailTo('claimed@pass.test')).toHaveLength(0);
    expect((await timelineOf(store.db, id, left.id)).filter((t) => t.kind === 'send_failed')).toHaveLength(1);
  });

  it('leaves a send claimed by a process allowed a longer wait on its mail server until that wait is over', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const id = d.desk.id;
    const left = await makeWork(store.db, id, {
      title: 'Claimed by a patient server',
      contact_email: 'patient@pass.test',
    });
    const draft = await makeDraft(store.db, id, left.id, { to: 'patient@pass.test' });
    const at = clock.now().toISOString();
    const longer = { mailTimeoutMs: deps.config.mailTimeoutMs * 10 };
    await claimDraft(store.db, id, draft.id, at, sendStaleAt(longer, at));

    // Past this process's own wait, the other server's send may still be going.
    clock.set(new Date(clock.now().getTime() + deps.config.mailTimeoutMs + 61_000));
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect(await row(id, left.id)).toMatchObject({ last_error: null });
    await expect(closeWork(deskContext(deps, d.desk, { type: 'owner', name: 'owner' }), left.id)).rejects.toMatchObject(
      {
        message: expect.stringContaining('a message on it is being sent right now'),
      },
    );

    clock.set(new Date(Date.parse(at) + longer.mailTimeoutMs + 61_000));
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect(await row(id, left.id)).toMatchObject({ last_error: SEND_NOT_KNOWN });
  });

  it('a draft asked for on a row a stopped send left claimed says whether it went is not known, and drafts nothing', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const id = d.desk.id;
    const left = await makeWork(store.db, id, { title: 'Claimed, then asked again', contact_email: 'again@pass.test' });
    const draft = await makeDraft(store.db, id, left.id, { to: 'again@pass.test' });
    await claimDraft(
      store.db,
      id,
      draft.id,
      clock.now().toISOString(),
      sendStaleAt(deps.config, clock.now().toISOString()),
    );
    clock.set(new Date(clock.now().getTime() + deps.config.mailTimeoutMs + 61_000));
    // Before any pass comes by, a person (or a program) asks for the message again.
    const owner = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
    expect(await draftWork(owner, left.id)).toEqual({ drafted: false, reason: SEND_NOT_KNOWN });
    expect((await messagesOf(store.db, id, left.id)).map((m) => [m.id, m.failure_reason])).toEqual([
      [draft.id, SEND_NOT_KNOWN],
    ]);
    expect(await row(id, left.id)).toMatchObject({ last_error: SEND_NOT_KNOWN });
    expect(mailTo('again@pass.test')).toHaveLength(0);
  });

  it('a claim a stopped send left on a row whose later message went leaves the row as that message put it', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const id = d.desk.id;
    const left = await makeWork(store.db, id, { title: 'Claimed, then sent anew', contact_email: 'anew@pass.test' });
    const first = await makeDraft(store.db, id, left.id, { to: 'anew@pass.test' });
    await claimDraft(
      store.db,
      id,
      first.id,
      clock.now().toISOString(),
      sendStaleAt(deps.config, clock.now().toISOString()),
    );
    // As an earlier version did once the claim was old: the message drafted again and sent.
    const later = await makeDraft(store.db, id, left.id, {
      to: 'anew@pass.test',
      status: 'sent',
      sentAt: clock.now().toISOString(),
    });
    await moveWork(store.db, id, left.id, 'open', 'waiting', { waiting_on: 'anew@pass.test' });
    clock.set(new Date(clock.now().getTime() + deps.config.mailTimeoutMs + 61_000));
    await pass(d.desk.slug);
    expect((await messagesOf(store.db, id, left.id)).map((m) => [m.id, m.status, m.failure_reason])).toEqual([
      [first.id, 'approved', SEND_NOT_KNOWN],
      [later.id, 'sent', null],
    ]);
    expect(await row(id, left.id)).toMatchObject({ status: 'waiting', last_error: null });
  });

  it('with more rows in reach than a page, acts on the best in queue order, one message to an address', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    await writeRails(store.db, d.desk.id, { daily_cap: 3 });
    // 450 rows due today, more than a page and all on one date; the best few lie deep in id order.
    const best: Record<number, WorkOver> = {
      300: { priority: 90, contact_email: 'top@page.test' },
      301: { priority: 90, contact_email: 'top@page.test' },
      420: { priority: 80 },
    };
    await makeWorkMany(
      store.db,
      d.desk.id,
      Array.from({ length: 450 }, (_, i) => ({
        title: `Page ${i}`,
        class: 'reach_out',
        due_date: TODAY,
        priority: 10,
        contact_email: `page${i}@page.test`,
        ...best[i],
      })),
    );
    await makeWork(store.db, d.desk.id, {
      title: 'Undated',
      class: 'reach_out',
      priority: 85,
      contact_email: 'undated@page.test',
    });

    const result = (await pass(d.desk.slug)).desks[0]!;
    expect(result.state).toBe('cap_reached');
    expect(result.acts.map((a) => a.title)).toEqual(['Page 300', 'Undated', 'Page 420']);
    expect(mailTo('top@page.test')).toHaveLength(1);
    expect(mailTo('page0@page.test')).toHaveLength(0);
  });

  it('writes once a day to an address however its letters are cased on each row', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    for (const [i, email] of ['lee@same.test', 'lee@SAME.TEST', 'Lee@Same.Test'].entries())
      await makeWork(store.db, d.desk.id, {
        title: `Cased ${i}`,
        class: 'reach_out',
        due_date: TODAY,
        contact_email: email,
      });
    const first = (await pass(d.desk.slug)).desks[0]!;
    expect(first.acts.map((a) => a.title)).toEqual(['Cased 0']);
    // A later pass the same day finds the address written to, in whatever case it is stored.
    clock.set(new Date(Date.parse(TEST_NOW) + 3600_000).toISOString());
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
  });

  it('writes once a day to an address with letters beyond A to Z, cased alike on each row', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    for (const [i, email] of ['ZOË@x.test', 'zoË@X.TEST', 'ΝΙΚΟΣ@x.test', 'ΝΙΚΟΣ@X.test'].entries())
      await makeWork(store.db, d.desk.id, {
        title: `Wide ${i}`,
        class: 'reach_out',
        due_date: TODAY,
        contact_email: email,
      });
    const first = (await pass(d.desk.slug)).desks[0]!;
    expect(first.acts.map((a) => a.title)).toEqual(['Wide 0', 'Wide 2']);
    clock.set(new Date(Date.parse(TEST_NOW) + 3600_000).toISOString());
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
  });

  it("a contact's address corrected after the message was prepared: the desk sends it to the corrected one", async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const w = await makeWork(store.db, d.desk.id, {
      title: 'Ask the printer for a proof',
      class: 'reach_out',
      due_date: TODAY,
      contact_name: 'Pat Print',
      contact_email: 'pat@old-print.test',
    });
    await makeDraft(store.db, d.desk.id, w.id, { subject: 'Proof', to: 'pat@old-print.test' });
    const owner = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
    await editWork(owner, w.id, { contact_email: 'pat@new-print.test' });
    expect((await timelineOf(store.db, d.desk.id, w.id)).at(-1)?.text).toBe(
      'owner changed contact email. Its prepared message now goes to pat@new-print.test.',
    );

    const acts = (await pass(d.desk.slug)).desks[0]!.acts;
    expect(acts.map((a) => [a.work_id, a.ok])).toEqual([[w.id, true]]);
    expect(mailTo('pat@old-print.test')).toHaveLength(0);
    expect(mailTo('pat@new-print.test')).toHaveLength(1);
  });

  it("a contact's name corrected after the message was prepared: the message greets the corrected name", async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const w = await makeWork(store.db, d.desk.id, {
      title: 'Ask the framer for a quote',
      class: 'reach_out',
      due_date: TODAY,
      contact_name: 'Jo Frame',
      contact_email: 'jo@frames.test',
    });
    const owner = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
    const drafted = await draftWork(owner, w.id);
    expect(drafted.drafted && drafted.body).toMatch(/^Hello Jo Frame,\n\n/);
    await editWork(owner, w.id, { contact_name: 'Joanna Frame' });
    expect((await timelineOf(store.db, d.desk.id, w.id)).at(-1)?.text).toBe(
      'owner changed contact name. Its prepared message now greets Joanna Frame.',
    );

    const acts = (await pass(d.desk.slug)).desks[0]!.acts;
    expect(acts.map((a) => [a.work_id, a.ok])).toEqual([[w.id, true]]);
    const sent = mailTo('jo@frames.test');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.raw).toContain('Hello Joanna Frame,');
    expect(sent[0]!.raw).not.toContain('Hello Jo Frame,');
  });

  it("a greeting the owner rewrote stays when the contact's name changes", async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const w = await makeWork(store.db, d.desk.id, {
      title: 'Ask the glazier for a quote',
      class: 'reach_out',
      due_date: TODAY,
      contact_name: 'Gil Glass',
      contact_email: 'gil@glass.test',
    });
    await makeDraft(store.db, d.desk.id, w.id, { to: 'gil@glass.test', body: 'Hi Gil,\n\nA quote, please.' });
    const owner = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
    await editWork(owner, w.id, { contact_name: 'Gilbert Glass' });
    expect((await timelineOf(store.db, d.desk.id, w.id)).at(-1)?.text).toBe('owner changed contact name.');
    expect((await draftOn(store.db, d.desk.id, w.id))?.body).toBe('Hi Gil,\n\nA quote, please.');
  });

  it('with no browser on the machine leaves a playbook row unclaimed, uses no act of the cap, and acts on the rest', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out', 'file']);
    await writeRails(store.db, d.desk.id, { daily_cap: 1 });
    const conn = await makeLoginConnection(store.db, d.desk.id);
    const pb = await makePlaybook(store.db, d.desk.id, 'file-without-browser', vatSteps(portal.url), conn.id);
    // First in the queue: overdue and most urgent.
    const filing = await makeWork(store.db, d.desk.id, {
      title: 'File the return with no browser',
      class: 'file',
      due_date: addDays(TODAY, -1),
      priority: 95,
      playbook_id: pb.id,
    });
    const letter = await makeWork(store.db, d.desk.id, {
      title: 'Ask the printer for a proof',
      class: 'reach_out',
      due_date: TODAY,
      priority: 50,
      contact_email: 'proof@no-browser.test',
    });
    const config = loadConfig({ DESK_DATABASE_URL: store.target }, { chromiumPath: '/nonexistent/chromium' });
    const noBrowser: Deps = { ...deps, config, engine: realEngine(config) };

    const result = (await runWorkPass(noBrowser, { desk: d.desk.slug })).desks[0]!;
    expect(result.acts.map((a) => [a.work_id, a.ok])).toEqual([[letter.id, true]]);
    expect(mailTo('proof@no-browser.test')).toHaveLength(1);
    expect(await row(d.desk.id, filing.id)).toEqual(filing);
    expect((await eventsOf(store.db, d.desk.id)).filter((e) => e.data.work_id === filing.id)).toEqual([]);
    const owner = deskContext(noBrowser, d.desk, { type: 'owner', name: 'owner' });
    expect(await ownNext(owner, filing.id)).toBe(`The desk will not act on this on its own: ${NO_BROWSER}`);

    // Told to act on it all the same, the desk refuses before it claims the row.
    const told = await runWork(owner, filing.id, {
      own: { as: 'run', since: new Date(Date.parse(TEST_NOW) - DAY).toISOString() },
    });
    expect(told).toMatchObject({ ok: false, activity_id: null, reason: NO_BROWSER });
    expect(told.needs).toMatch(/browser/);
    expect(await row(d.desk.id, filing.id)).toEqual(filing);
  });

  it('with no mailbox connected leaves the rows it would write on, uses no act, and sends once one is connected', async () => {
    clock.set(TEST_NOW);
    const d = await makeDesk(store.db, { grants: ['reach_out', 'chase'] });
    await writeRails(store.db, d.desk.id, { hours: 'always', daily_cap: 1 });
    const letter = await makeWork(store.db, d.desk.id, {
      title: 'Ask the baker for a price list',
      class: 'reach_out',
      due_date: TODAY,
      contact_email: 'prices@no-mailbox.test',
    });
    const chased = await makeWork(store.db, d.desk.id, {
      title: 'Hear back from the florist',
      class: 'reach_out',
      contact_email: 'florist@no-mailbox.test',
      status: 'waiting',
      waiting_on: 'the florist',
      waiting_since: new Date(Date.parse(TEST_NOW) - 10 * DAY).toISOString(),
      chase_after_days: 3,
    });
    const before = [await row(d.desk.id, letter.id), await row(d.desk.id, chased.id)];

    const result = (await pass(d.desk.slug)).desks[0]!;
    expect(result).toMatchObject({ state: 'acted', acts: [], faults: [] });
    expect([await row(d.desk.id, letter.id), await row(d.desk.id, chased.id)]).toEqual(before);
    const owner = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
    for (const r of [letter, chased])
      expect(await ownNext(owner, r.id)).toBe(`The desk will not act on this on its own: ${NO_MAILBOX_OWN}`);

    await connectMailbox(store.db, d.desk.id, smtp.port);
    const then = (await pass(d.desk.slug)).desks[0]!;
    expect(then.acts.map((a) => [a.work_id, a.ok])).toHaveLength(1);
    expect(then.acts[0]!.ok).toBe(true);
    expect(mailTo('prices@no-mailbox.test').length + mailTo('florist@no-mailbox.test').length).toBe(1);
  });

  it('with more rows in reach than a pass reads, the passes after it go on from there to the last row', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    // Twelve rows the desk has no way to act on (nobody to write to), most overdue first, then
    // one it can: last in the order the pass reads.
    await makeWorkMany(
      store.db,
      d.desk.id,
      Array.from({ length: 12 }, (_, i) => ({
        title: `No way ${i}`,
        class: 'reach_out',
        due_date: addDays(TODAY, -20 + i),
        priority: 90,
      })),
    );
    await makeWork(store.db, d.desk.id, {
      title: 'Deep in reach',
      class: 'reach_out',
      due_date: TODAY,
      contact_email: 'deep@turns.test',
    });
    const acts = async (reading: PassReading) =>
      (await runWorkPass(deps, { desk: d.desk.slug, reading })).desks[0]!.acts.map((a) => a.title);

    // Reading five rows a pass and starting at the top each time, it never gets there.
    for (let i = 0; i < 3; i++) expect(await acts({ most: 5 })).toEqual([]);
    // Remembering where it stopped, the third pass reads the last three rows and acts.
    const turns = new PassTurns();
    expect(await acts({ most: 5, turns })).toEqual([]);
    expect(await acts({ most: 5, turns })).toEqual([]);
    expect(await acts({ most: 5, turns })).toEqual(['Deep in reach']);
    expect(mailTo('deep@turns.test')).toHaveLength(1);
  });

  it('a mailbox that refuses leaves that row needing a look and the pass goes on', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const a = await makeWork(store.db, d.desk.id, { title: 'A', class: 'reach_out', contact_email: 'ra@pass.test' });
    const b = await makeWork(store.db, d.desk.id, { title: 'B', class: 'reach_out', contact_email: 'rb@pass.test' });
    smtp.setMode('refuse');
    try {
      const r = (await pass(d.desk.slug)).desks[0]!;
      expect(r.acts.map((x) => x.ok)).toEqual([false, false]);
    } finally {
      smtp.setMode('accept');
    }
    for (const w of [a, b]) expect((await row(d.desk.id, w.id)).last_error).toMatch(/unavailable|refused/i);
    clock.advance(DAY + 1);
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
  });

  it('a mail server that refuses the sign-in costs no row a look: the pass stops there, and the connection says why', async () => {
    clock.set(TEST_NOW);
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    const guarded = await startSmtpServer({ auth: { user: 'desk', pass: 'not the stored one' } });
    try {
      await connectMailbox(store.db, d.desk.id, guarded.port);
      await writeRails(store.db, d.desk.id, { hours: 'always' });
      const rows = [];
      for (const n of [1, 2, 3])
        rows.push(
          await makeWork(store.db, d.desk.id, {
            title: `Signed ${n}`,
            class: 'reach_out',
            due_date: addDays(TODAY, n),
            contact_email: `signed${n}@pass.test`,
          }),
        );
      const r = (await pass(d.desk.slug)).desks[0]!;
      expect(r).toMatchObject({ state: 'mailbox_down', acts: [{ work_id: rows[0]!.id, ok: false, put_back: true }] });
      expect(r.acts[0]!.outcome).toMatch(/was not sent: .*"Signed 1" is as it was/);
      expect(guarded.signIns()).toBe(1);
      for (const w of rows)
        expect(await row(d.desk.id, w.id)).toMatchObject({ status: 'open', last_error: null, desk_acted_at: null });
      const said = (await timelineOf(store.db, d.desk.id, rows[0]!.id)).filter((t) => t.kind === 'send_failed');
      expect(said.map((t) => t.text)).toEqual([
        expect.stringMatching(
          /refused the desk's sign-in \(535 .*\).*Nothing went; the desk tries again once its mail server takes its mailbox\.$/,
        ),
      ]);
      const [box] = await connectionsWithConfig(store.db, d.desk.id);
      expect(box?.send_fault).toMatch(/^The mail server refused the desk's sign-in/);
      expect(guarded.received).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });

  it('a mail server that asks to send later costs no row a look, and the row goes out when it takes it', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const w = await makeWork(store.db, d.desk.id, {
      title: 'Later',
      class: 'reach_out',
      contact_email: 'later@pass.test',
    });
    smtp.setMode('later');
    try {
      const r = (await pass(d.desk.slug)).desks[0]!;
      expect(r).toMatchObject({ state: 'mailbox_down', acts: [{ work_id: w.id, ok: false, put_back: true }] });
      // Said as what it was, the server's words: it was reached, and asked for the message later.
      expect(r.acts[0]!.outcome).toMatch(/was not sent: .*sent later \(451 Try again later\).* "Later" is as it was/);
      expect(r.acts[0]!.outcome).not.toMatch(/could not reach/);
    } finally {
      smtp.setMode('accept');
    }
    expect(await row(d.desk.id, w.id)).toMatchObject({ status: 'open', last_error: null, desk_acted_at: null });
    const said = (await timelineOf(store.db, d.desk.id, w.id)).filter((t) => t.kind === 'send_failed');
    expect(said.map((t) => t.text)).toEqual([
      expect.stringMatching(
        /sent later \(451 Try again later\), so nothing was sent\. Nothing went; the desk tries again/,
      ),
    ]);
    const before = smtp.received.length;
    const r = (await pass(d.desk.slug)).desks[0]!;
    expect(r.acts.map((a) => [a.work_id, a.ok])).toEqual([[w.id, true]]);
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([['later@pass.test']]);
  });

  it('a mail server that cannot be reached costs no row a look: the row stays as it was and goes out once it answers', async () => {
    clock.set(TEST_NOW);
    const { d, port } = await deskWithServerGone('reach_out', 2);
    const rows = [];
    for (const n of [1, 2, 3])
      rows.push(
        await makeWork(store.db, d.desk.id, {
          title: `Down ${n}`,
          class: 'reach_out',
          due_date: addDays(TODAY, n),
          contact_email: `down${n}@pass.test`,
        }),
      );
    // More passes than the day's cap: none of them uses up an act or strands a row.
    for (const _ of [1, 2, 3]) {
      const r = (await pass(d.desk.slug)).desks[0]!;
      expect(r).toMatchObject({ state: 'mailbox_down', acts: [{ work_id: rows[0]!.id, ok: false, put_back: true }] });
      expect(r.acts[0]!.outcome).toMatch(/was not sent: The mail server could not be reached.*"Down 1" is as it was/);
      expect(r).not.toHaveProperty('retry_at');
    }
    for (const w of rows) {
      const now = await row(d.desk.id, w.id);
      expect(now).toMatchObject({ status: 'open', last_error: null, desk_acted_at: null });
      // The message drafted for the send is withdrawn: nothing is left to approve.
      expect(await messagesOf(store.db, d.desk.id, w.id)).toEqual([]);
    }
    const said = (await timelineOf(store.db, d.desk.id, rows[0]!.id)).filter((t) => t.kind === 'send_failed');
    expect(said).toHaveLength(3);
    expect(said[0]!.text).toMatch(
      /could not be reached: .*\. Nothing went; the desk tries again once its mail server answers\./,
    );
    const failed = await eventsOf(store.db, d.desk.id, 'send_failed');
    expect(failed.map((e) => e.data.put_back)).toEqual([true, true, true]);

    const back = await startSmtpServer({ port });
    try {
      const r = (await pass(d.desk.slug)).desks[0]!;
      expect(r.acts.map((a) => [a.work_id, a.ok, a.put_back])).toEqual([
        [rows[0]!.id, true, undefined],
        [rows[1]!.id, true, undefined],
      ]);
      expect(back.received.map((m) => m.to)).toEqual([['down1@pass.test'], ['down2@pass.test']]);
      expect(r.state).toBe('cap_reached');
    } finally {
      await back.close();
    }
  });

  it('a message prepared on a row already waiting goes on its own only as a chase: granted, due and within max_chases', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const waitingRow = (title: string, email: string, over: WorkOver) =>
      makeWork(store.db, d.desk.id, {
        title,
        class: 'reach_out',
        status: 'waiting',
        contact_name: title,
        contact_email: email,
        waiting_on: title,
        waiting_since: addDays(TODAY, -2),
        chase_after_days: 7,
        ...over,
      });
    const used = await waitingRow('Used up', 'used.up@pass.test', { chases: 3, max_chases: 3 });
    const none = await waitingRow('None allowed', 'none.allowed@pass.test', { max_chases: 0 });
    const early = await waitingRow('Too early', 'too.early@pass.test', { max_chases: 3 });
    for (const w of [used, none, early]) await makeDraft(store.db, d.desk.id, w.id, { to: w.contact_email! });
    const addresses = [used, none, early].map((w) => w.contact_email!);
    const sentTo = () => smtp.received.filter((m) => m.to.some((t) => addresses.includes(t))).map((m) => m.to[0]);

    // reach_out is granted, but a message on a waiting row is a chase, and chase is not.
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect(sentTo()).toEqual([]);
    const owner = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
    // Said as the day the chase point comes would have it: out of chases, a person follows it up;
    // with chases left, only the grant is missing.
    expect(await ownNext(owner, used.id)).toBe('The desk will not act on this on its own.');
    expect(await ownNext(owner, early.id)).toMatch(/Chasing is not granted/);
    // Told to run it as the desk's own act all the same, the claim refuses it.
    const told = await runWork(deskContext(deps, d.desk, DESK_ACTOR), early.id, {
      own: { as: 'run', since: new Date(Date.parse(TEST_NOW) - DAY).toISOString() },
    });
    expect(told).toMatchObject({ ok: false, activity_id: null, waiting: 'Too early' });
    expect(told.reason).toMatch(/would be a chase/);

    // Granted and past the chase point, the one with chases left goes, as a chase; the others stay.
    await setGrant(store.db, {
      deskId: d.desk.id,
      cls: 'chase',
      granted: true,
      now: clock.now().toISOString(),
      by: 'owner',
    });
    clock.set(new Date(Date.parse(TEST_NOW) + 6 * DAY).toISOString());
    const r = (await pass(d.desk.slug)).desks[0]!;
    expect(r.acts.map((a) => [a.work_id, a.as, a.ok])).toEqual([[early.id, 'chase', true]]);
    expect(sentTo()).toEqual(['too.early@pass.test']);
    expect((await row(d.desk.id, early.id)).chases).toBe(1);
    expect((await row(d.desk.id, used.id)).chases).toBe(3);
  });

  it('writes to an address once a day though another pass is writing to it at that moment', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    const first = await makeWork(store.db, d.desk.id, {
      title: 'First to the same',
      class: 'reach_out',
      contact_email: 'Same.One@pass.test',
    });
    await makeWork(store.db, d.desk.id, {
      title: 'Second to the same',
      class: 'reach_out',
      contact_email: 'same.one@pass.test',
    });
    const sameOne = () => smtp.received.filter((m) => m.to.some((t) => t.toLowerCase() === 'same.one@pass.test'));
    // Another pass has claimed the first row and not yet written its message.
    await moveWork(store.db, d.desk.id, first.id, 'open', 'in_progress', { desk_acted_at: clock.now().toISOString() });
    const run = await insertRun(store.db, {
      deskId: d.desk.id,
      workId: first.id,
      how: 'draft_send',
      priorStatus: 'open',
      at: clock.now().toISOString(),
      staleAt: new Date(clock.now().getTime() + HOUR).toISOString(),
    });
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    await store.db.updateTable('runs').set({ status: 'finished' }).where('id', '=', run.id).execute();
    // Its message is now on its way: claimed for sending, with no answer from the server yet.
    const going = await makeDraft(store.db, d.desk.id, first.id, { to: 'Same.One@pass.test' });
    await claimDraft(
      store.db,
      d.desk.id,
      going.id,
      clock.now().toISOString(),
      sendStaleAt(deps.config, clock.now().toISOString()),
    );
    await moveWork(store.db, d.desk.id, first.id, 'in_progress', 'waiting', {});
    expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
    expect(sameOne()).toEqual([]);
  });

  it('a row in_progress that no run holds (a person is handling it) keeps nobody from its contact', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out']);
    await makeWork(store.db, d.desk.id, {
      title: 'Sorting the oven part with Sam',
      class: 'commit',
      status: 'in_progress',
      contact_email: 'sam.handled@pass.test',
    });
    const ask = await makeWork(store.db, d.desk.id, {
      title: 'Ask Sam for the winter hours',
      class: 'reach_out',
      contact_email: 'sam.handled@pass.test',
    });
    const r = (await pass(d.desk.slug)).desks[0]!;
    expect(r.acts.map((a) => [a.work_id, a.ok])).toEqual([[ask.id, true]]);
    expect(mailTo('sam.handled@pass.test')).toHaveLength(1);
  });

  it('a chase its mail server could not take is chased again, as if never tried', async () => {
    clock.set(TEST_NOW);
    const { d, port } = await deskWithServerGone('chase');
    const quiet = await makeWork(store.db, d.desk.id, {
      title: 'Get the delivery date',
      class: 'commit',
      status: 'waiting',
      contact_name: 'Mo Vans',
      contact_email: 'mo.down@pass.test',
      waiting_on: 'Mo Vans',
      waiting_since: addDays(TODAY, -8),
      chase_after_days: 7,
    });
    const r = (await pass(d.desk.slug)).desks[0]!;
    expect(r).toMatchObject({ state: 'mailbox_down', acts: [{ work_id: quiet.id, as: 'chase', ok: false }] });
    expect(await row(d.desk.id, quiet.id)).toMatchObject({
      status: 'waiting',
      waiting_on: 'Mo Vans',
      chases: 0,
      last_error: null,
      desk_acted_at: null,
    });
    // "commit" is not granted: a draft left behind would wait for the owner's approval instead.
    expect(await draftOn(store.db, d.desk.id, quiet.id)).toBeUndefined();
    const back = await startSmtpServer({ port });
    try {
      const again = (await pass(d.desk.slug)).desks[0]!;
      expect(again.acts.map((a) => [a.as, a.ok])).toEqual([['chase', true]]);
      expect((await row(d.desk.id, quiet.id)).chases).toBe(1);
      expect(back.received).toHaveLength(1);
    } finally {
      await back.close();
    }
  });

  it('a prepared message its mail server could not take stays prepared, and is what goes later', async () => {
    clock.set(TEST_NOW);
    const { d, port } = await deskWithServerGone('reach_out');
    const w = await makeWork(store.db, d.desk.id, {
      title: 'Prepared',
      class: 'reach_out',
      contact_email: 'kept@pass.test',
    });
    const draft = await makeDraft(store.db, d.desk.id, w.id, { subject: 'Owner words', to: 'kept@pass.test' });
    expect((await pass(d.desk.slug)).desks[0]!.state).toBe('mailbox_down');
    expect(await draftOn(store.db, d.desk.id, w.id)).toMatchObject({
      id: draft.id,
      status: 'drafted',
      approved_at: null,
      failure_reason: null,
    });
    const back = await startSmtpServer({ port });
    try {
      expect((await pass(d.desk.slug)).desks[0]!.acts.map((a) => a.ok)).toEqual([true]);
      expect(back.received[0]!.raw).toMatch(/Subject: Owner words/);
    } finally {
      await back.close();
    }
  });

  it.skipIf(name !== 'sqlite')(
    "a person's draft, made while the desk's own run was under way, stays when the run's send cannot reach the server",
    async () => {
      clock.set(TEST_NOW);
      const { d } = await deskWithServerGone('reach_out');
      const w = await makeWork(store.db, d.desk.id, {
        title: 'Drafted meanwhile',
        class: 'reach_out',
        contact_email: 'meanwhile@pass.test',
      });
      const person = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
      const own = { as: 'run' as const, since: new Date(Date.parse(TEST_NOW) - DAY).toISOString() };
      const run = (onClaim?: () => void) =>
        runWork(deskContext(deps, d.desk, DESK_ACTOR), w.id, { own, ...(onClaim ? { onClaim } : {}) });
      // The run has claimed the row to draft and send; the person's draft waits for the claim to
      // commit and is written before the run drafts, which then finds it. That order is SQLite's,
      // one writer at a time in turn; on PostgreSQL it is the row lock's queue, which the test
      // cannot line up from inside one process, and the same code decides.
      let theirs: ReturnType<typeof draftWork> | undefined;
      const r = await run(() => {
        theirs = draftWork(person, w.id);
      });
      expect(await theirs).toMatchObject({ drafted: true, to: 'meanwhile@pass.test' });
      expect(r).toMatchObject({ ok: false });
      const drafted = (await eventsOf(store.db, d.desk.id, 'drafted')).filter((e) => e.data.work_id === w.id);
      expect(drafted.map((e) => e.data.by)).toEqual(['owner']);
      // The draft the person was told exists still does: the run did not write it, so it is not
      // the run's to withdraw.
      expect(await draftOn(store.db, d.desk.id, w.id)).toMatchObject({
        id: drafted[0]!.data.activity_id,
        status: 'drafted',
      });
      expect(await row(d.desk.id, w.id)).toMatchObject({ status: 'open', last_error: null, desk_acted_at: null });
    },
  );

  it("a process that passes again and again holds the desk's sends after a miss, a minute and then longer", async () => {
    clock.set(TEST_NOW);
    const { d, port } = await deskWithServerGone('reach_out');
    const w = await makeWork(store.db, d.desk.id, {
      title: 'Held',
      class: 'reach_out',
      contact_email: 'held@pass.test',
    });
    const reading: PassReading = { hold: new SendHold() };
    const held = () => runWorkPass(deps, { desk: d.desk.slug, reading }).then((r) => r.desks[0]!);
    const inMs = (r: { retry_at?: string }) => Date.parse(r.retry_at!) - clock.now().getTime();

    const first = await held();
    expect(first).toMatchObject({ state: 'mailbox_down', acts: [{ ok: false }] });
    expect(inMs(first)).toBe(60_000);
    // Within the minute the pass leaves the desk's sends alone: no attempt, nothing written.
    clock.advance(59_000);
    const quiet = await held();
    expect(quiet).toMatchObject({ state: 'mailbox_down', acts: [] });
    expect(inMs(quiet)).toBe(1_000);
    clock.advance(1_000);
    const second = await held();
    expect(second.acts).toHaveLength(1);
    expect(inMs(second)).toBe(120_000);
    expect((await timelineOf(store.db, d.desk.id, w.id)).filter((t) => t.kind === 'send_failed')).toHaveLength(2);

    const back = await startSmtpServer({ port });
    try {
      // Still held a minute on, while the connection keeps its fault.
      clock.advance(60_000);
      expect(await held()).toMatchObject({ state: 'mailbox_down', acts: [] });
      // The owner's test message gets through: the fault is gone, and the hold with it.
      const [box] = await connectionsWithConfig(store.db, d.desk.id);
      expect(box?.send_fault).toMatch(/could not be reached/);
      const ctx = deskContext(deps, d.desk, { type: 'owner', name: 'owner' });
      expect(await testMailbox(ctx, box!.id, 'owner@pass.test')).toMatchObject({ ok: true });
      expect((await connectionsWithConfig(store.db, d.desk.id))[0]?.send_fault).toBeNull();
      const sent = await held();
      expect(sent).toMatchObject({ state: 'acted', acts: [{ ok: true }] });
      expect(sent).not.toHaveProperty('retry_at');
      expect(reading.hold!.until(d.desk.id, clock.now())).toBeNull();
    } finally {
      await back.close();
    }
  });

  it('chases three times without an answer, then the row needs a person and the desk stops', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['chase']);
    const quiet = await makeWork(store.db, d.desk.id, {
      title: 'Get the delivery date',
      class: 'commit',
      status: 'waiting',
      contact_name: 'Mo Vans',
      contact_email: 'mo@pass.test',
      waiting_on: 'Mo Vans',
      waiting_since: addDays(TODAY, -8),
      chase_after_days: 7,
    });
    for (const n of [1, 2, 3]) {
      const r = (await pass(d.desk.slug)).desks[0]!;
      expect(r.acts.map((a) => [a.work_id, a.as, a.ok])).toEqual([[quiet.id, 'chase', true]]);
      expect((await row(d.desk.id, quiet.id)).chases).toBe(n);
      // Not again until the chase point comes round.
      clock.advance(6 * DAY);
      expect((await pass(d.desk.slug)).desks[0]!.acts).toEqual([]);
      clock.advance(DAY);
    }
    expect(mailTo('mo@pass.test')).toHaveLength(3);
    const later = await pass(d.desk.slug);
    expect(later.desks[0]!.acts).toEqual([]);
    expect(mailTo('mo@pass.test')).toHaveLength(3);

    const r = await row(d.desk.id, quiet.id);
    const today = dateIn('UTC', clock.now());
    const item = toWorkItem({
      row: r,
      hasDraft: (await rowsWithDrafts(store.db, d.desk.id, [r.id])).has(r.id),
      grants: new Set(['chase']),
      today,
      timezone: 'UTC',
    });
    const lastChase = dateIn('UTC', new Date(r.waiting_since!));
    expect(item.action).toMatchObject({ type: 'own', label: 'Assign to me' });
    expect(item.action!.hint).toContain(`Mo Vans has not answered since ${lastChase}, after 3 chases`);
    // Each chase after the first is threaded on the one before it.
    const sent = (await messagesOf(store.db, d.desk.id, quiet.id)).filter((m) => m.status === 'sent');
    expect(sent).toHaveLength(3);
    expect(mailTo('mo@pass.test')[2]!.raw).toContain(`In-Reply-To: ${sent[1]!.message_id}`);
  });

  it('chases a quiet row that has a playbook by writing, never by following a playbook its class is not granted', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['chase']);
    const conn = await makeLoginConnection(store.db, d.desk.id);
    const pb = await makePlaybook(store.db, d.desk.id, 'file-vat-return', vatSteps(portal.url), conn.id);
    const quiet = {
      class: 'file',
      status: 'waiting',
      playbook_id: pb.id,
      waiting_on: 'The tax office',
      waiting_since: addDays(TODAY, -10),
    };
    const writable = await makeWork(store.db, d.desk.id, {
      ...quiet,
      title: 'Get the filing acknowledged',
      contact_email: 'office@tax-pass.test',
    });
    const unwritable = await makeWork(store.db, d.desk.id, { ...quiet, title: 'Nobody to write to' });

    const r = (await pass(d.desk.slug)).desks[0]!;
    expect(r.acts.map((a) => [a.work_id, a.as, a.ok])).toEqual([[writable.id, 'chase', true]]);
    expect(mailTo('office@tax-pass.test')).toHaveLength(1);
    const started = (await eventsOf(store.db, d.desk.id, 'run_started')).filter((e) =>
      [writable.id, unwritable.id].includes(e.data.work_id as number),
    );
    expect(started.map((e) => [e.data.work_id, e.data.how])).toEqual([[writable.id, 'draft_send']]);
    expect(await row(d.desk.id, writable.id)).toMatchObject({ status: 'waiting', chases: 1 });
    expect(await row(d.desk.id, unwritable.id)).toMatchObject({ status: 'waiting', chases: 0, desk_acted_at: null });
  });

  it("chases on the desk's own next day, west of UTC as everywhere", async () => {
    clock.set(TEST_NOW);
    const zone = 'America/Los_Angeles';
    const d = await makeDesk(store.db, { grants: ['chase'], timezone: zone });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    await writeRails(store.db, d.desk.id, { hours: 'always' });
    // Out with Kai since eight hours ago: the desk's yesterday, though the same date in UTC.
    const since = new Date(clock.now().getTime() - 8 * 3600_000);
    expect(addDays(dateIn(zone, since), 1)).toBe(dateIn(zone, clock.now()));
    expect(dateIn('UTC', since)).toBe(dateIn('UTC', clock.now()));
    const quiet = await makeWork(store.db, d.desk.id, {
      title: 'Get the van booked',
      class: 'commit',
      status: 'waiting',
      contact_name: 'Kai Vans',
      contact_email: 'kai@west.test',
      waiting_on: 'Kai Vans',
      waiting_since: since.toISOString(),
      chase_after_days: 1,
    });
    const r = (await pass(d.desk.slug)).desks[0]!;
    expect(r.acts.map((a) => [a.work_id, a.as, a.ok])).toEqual([[quiet.id, 'chase', true]]);
    expect(mailTo('kai@west.test')).toHaveLength(1);
  });

  it.runIf(name === 'postgres')('two passes at once on two connections send each message once', async () => {
    clock.set(TEST_NOW);
    const d = await desk(['reach_out', 'chase']);
    const ids: number[] = [];
    for (let n = 0; n < 6; n++) {
      const w = await makeWork(store.db, d.desk.id, {
        title: `Race ${n}`,
        class: 'reach_out',
        contact_email: `race${n}@pass.test`,
      });
      ids.push(w.id);
      if (n % 2 === 0) await makeDraft(store.db, d.desk.id, w.id, { to: `race${n}@pass.test` });
    }
    const other = await reopenStore(store.target, { migrate: false });
    try {
      const deps2: Deps = { ...deps, store: { ...other } as unknown as Deps['store'] };
      const desk = await store.db.selectFrom('desks').selectAll().where('id', '=', d.desk.id).executeTakeFirstOrThrow();
      const [a, b] = await Promise.all([
        passDesk(deskContext(deps, desk, DESK_ACTOR)),
        passDesk(deskContext(deps2, desk, DESK_ACTOR)),
      ]);
      expect(a.acts.length + b.acts.length).toBe(6);
    } finally {
      await other.close();
    }
    for (let n = 0; n < 6; n++) expect(mailTo(`race${n}@pass.test`), `race${n}`).toHaveLength(1);
  });

  it.runIf(name === 'postgres')(
    'two passes at once on two connections keep to the daily cap between them',
    async () => {
      clock.set(TEST_NOW);
      const d = await desk(['reach_out']);
      await writeRails(store.db, d.desk.id, { daily_cap: 3 });
      for (let n = 0; n < 10; n++)
        await makeWork(store.db, d.desk.id, {
          title: `Capped ${n}`,
          class: 'reach_out',
          contact_email: `capped${n}@cap-race.test`,
        });
      const other = await reopenStore(store.target, { migrate: false });
      try {
        const deps2: Deps = { ...deps, store: { ...other } as unknown as Deps['store'] };
        const desk = await store.db
          .selectFrom('desks')
          .selectAll()
          .where('id', '=', d.desk.id)
          .executeTakeFirstOrThrow();
        const [a, b] = await Promise.all([
          passDesk(deskContext(deps, desk, DESK_ACTOR)),
          passDesk(deskContext(deps2, desk, DESK_ACTOR)),
        ]);
        expect(a.acts.length + b.acts.length).toBe(3);
        expect([a.state, b.state]).toEqual(['cap_reached', 'cap_reached']);
      } finally {
        await other.close();
      }
      expect(smtp.received.filter((m) => m.to.some((t) => t.endsWith('@cap-race.test')))).toHaveLength(3);
    },
  );

  it.runIf(name === 'postgres')(
    'two processes passing at once send each message once',
    async () => {
      clock.set(TEST_NOW);
      const d = await desk(['reach_out', 'chase']);
      for (let n = 0; n < 6; n++) {
        const w = await makeWork(store.db, d.desk.id, {
          title: `Process race ${n}`,
          class: 'reach_out',
          contact_email: `proc${n}@pass.test`,
        });
        if (n % 2 === 0) await makeDraft(store.db, d.desk.id, w.id, { to: `proc${n}@pass.test` });
      }
      const results = await racePasses<WorkPassResult>('work', store.target, TEST_NOW, { desk: d.desk.slug });
      for (const r of results) expect(r.failures).toEqual([]);
      const acts = results.flatMap((r) => r.desks.flatMap((p) => p.acts));
      expect(acts).toHaveLength(6);
      for (let n = 0; n < 6; n++) expect(mailTo(`proc${n}@pass.test`), `proc${n}`).toHaveLength(1);
    },
    180_000,
  );
});
