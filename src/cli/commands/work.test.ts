import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStore, type TestStore } from '../../../test/helpers/db.ts';
import { desk } from '../../../test/helpers/cli.ts';
import { makeDesk, makeDraft, makeWork } from '../../../test/helpers/factories.ts';
import { TEST_NOW } from '../../../test/helpers/app.ts';
import { addDays, minuteOfInstant } from '../../domain/dates.ts';
import { findWork } from '../../store/repositories/work.ts';
import type { DeskRow } from '../../store/schema.ts';
import { buildProgram } from '../main.ts';
import { processIo } from '../io.ts';

// What the owner is told when a `desk work` command on one row is typed wrong or meets a row
// it cannot act on. The clock is TEST_NOW (the `desk` helper sets DESK_NOW).

describe('desk work on one row', () => {
  let store: TestStore;
  let bakery: DeskRow;
  let joinery: DeskRow;

  beforeAll(async () => {
    store = await sqliteStore();
    bakery = (await makeDesk(store.db, { slug: 'corner-bakery' })).desk;
    joinery = (await makeDesk(store.db, { slug: 'harbour-joinery' })).desk;
  });
  afterAll(async () => {
    await store.close();
  });

  it('work show lists a message at the time it went, and one with no subject without a dangling colon', async () => {
    const row = await makeWork(store.db, bakery.id, { title: 'Pay the mill', status: 'done' });
    const wentAt = new Date(new Date(TEST_NOW).getTime() - 86_400_000).toISOString();
    await makeDraft(store.db, bakery.id, row.id, {
      status: 'sent',
      subject: 'Paid',
      to: 'mill@x.test',
      sentAt: wentAt,
    });
    await makeDraft(store.db, bakery.id, row.id, { status: 'sent', subject: '', to: 'mill@x.test', sentAt: wentAt });
    const shown = await desk(store.target, 'work', 'show', String(row.id), '--desk', bakery.slug);
    const minute = minuteOfInstant(bakery.timezone, wentAt);
    expect(shown.out).toContain(`\n  ${minute} sent email to mill@x.test: Paid\n`);
    expect(shown.out).toContain(`\n  ${minute} sent email to mill@x.test\n`);
  });

  it("work show names a received message's attachments under its text, as the screen does", async () => {
    const row = await makeWork(store.db, bakery.id, { title: 'Quote for the oven', status: 'open' });
    const reply = await makeDraft(store.db, bakery.id, row.id, {
      status: 'received',
      subject: 'Re: Quote',
      body: 'Attached.',
    });
    await store.db
      .updateTable('activity')
      .set({
        direction: 'inbound',
        actor: 'oven@x.test',
        attachments: JSON.stringify([
          { name: 'quote.pdf', size: 3000 },
          { name: 'plan\u0007.png', size: 100 },
        ]),
      })
      .where('id', '=', reply.id)
      .execute();
    const shown = await desk(store.target, 'work', 'show', String(row.id), '--desk', bakery.slug);
    expect(shown.out).toContain('\n    Attached.\n    Attachments (not kept by the desk): quote.pdf (3 KB), plan');
    expect(shown.out).toMatch(/plan\S*\.png \(1 KB\)\n/);
    expect(shown.out).not.toContain('\u0007');
  });

  it('work assign refuses --to and --clear together, and still asks for one when neither is given', async () => {
    const row = await makeWork(store.db, bakery.id, { title: 'Fix the till' });
    const both = await desk(store.target, 'work', 'assign', String(row.id), '--to', 'Sam', '--clear');
    expect(both).toMatchObject({
      code: 1,
      out: '',
      err: 'desk: work assign takes --to <person> or --clear, not both.\n',
    });
    const neither = await desk(store.target, 'work', 'assign', String(row.id));
    expect(neither).toMatchObject({
      code: 1,
      out: '',
      err: 'desk: work assign needs either --to <person> or --clear.\n',
    });
    expect((await findWork(store.db, bakery.id, row.id))!.assignee).toBeNull();
  });

  it('every work command on a row names the desk it was given when the row is not on it', async () => {
    const row = await makeWork(store.db, bakery.id, { title: 'Order the flour', priority: 40 });
    // Each command of `desk work` that takes a row id, so one added later is held to this too.
    const work = buildProgram(processIo).commands.find((c) => c.name() === 'work')!;
    const byId = work.commands.filter((c) => c.registeredArguments.some((a) => a.name() === 'id')).map((c) => c.name());
    expect(byId).toEqual(
      expect.arrayContaining(['show', 'edit', 'close', 'reopen', 'assign', 'snooze', 'draft', 'complete']),
    );
    const extra: Record<string, string[]> = { edit: ['--priority', '5'], assign: ['--to', 'Sam'] };
    for (const name of byId) {
      const args = ['work', name, String(row.id), '--desk', joinery.slug, ...(extra[name] ?? [])];
      const r = await desk(store.target, ...args);
      expect(r, name).toMatchObject({
        code: 1,
        out: '',
        err: `desk: No work item ${row.id} on the desk harbour-joinery.\n`,
      });
    }
    // Named by its id, the desk is still said by its slug; --json keeps the API's code.
    const json = await desk(
      store.target,
      'work',
      'edit',
      String(row.id),
      '--desk',
      joinery.id,
      '--priority',
      '5',
      '--json',
    );
    expect(json.json()).toEqual({
      error: { code: 'not_found', message: `No work item ${row.id} on the desk harbour-joinery.` },
    });
    expect(await findWork(store.db, bakery.id, row.id)).toMatchObject({ status: 'open', priority: 40, assignee: null });
    // On its own desk the row is found as before.
    expect((await desk(store.target, 'work', 'show', String(row.id), '--desk', bakery.slug)).code).toBe(0);
  });

  it('work complete refuses a note past 4,000 characters beside --note, and changes nothing', async () => {
    const row = await makeWork(store.db, bakery.id, { title: 'Sweep the yard' });
    const c = await desk(store.target, 'work', 'complete', String(row.id), '--note', 'n'.repeat(4001));
    expect(c).toMatchObject({
      code: 1,
      out: '',
      err: 'desk: --note: A note is at most 4,000 characters; this one is longer.\n',
    });
    expect(await findWork(store.db, bakery.id, row.id)).toMatchObject({ status: 'open', detail: null });
  });

  it('work complete on a finished row says what it is, not whom it once waited on', async () => {
    const finished = {
      waiting_on: 'Priya Shah',
      waiting_since: addDays(TEST_NOW.slice(0, 10), -14),
      closed_at: TEST_NOW,
    };
    const closed = await makeWork(store.db, bakery.id, { ...finished, status: 'closed' });
    const c = await desk(store.target, 'work', 'complete', String(closed.id));
    expect(c).toMatchObject({
      code: 1,
      err: '',
      out: `#${closed.id} is closed. This row is already closed; nothing was changed.\n`,
    });
    const done = await makeWork(store.db, bakery.id, { ...finished, status: 'done' });
    const d = await desk(store.target, 'work', 'complete', String(done.id));
    expect(d).toMatchObject({
      code: 0,
      out: `#${done.id} is done. This row is already done; nothing was changed.\n`,
    });
    // A row still out with somebody says whom it waits on, once.
    const waiting = await makeWork(store.db, bakery.id, { status: 'waiting', waiting_on: 'Priya Shah' });
    const w = await desk(store.target, 'work', 'complete', String(waiting.id));
    expect(w).toMatchObject({
      code: 0,
      out: `#${waiting.id} is waiting on Priya Shah. There was no prepared message; this step was recorded as done by hand.\n`,
    });
  });

  it('work draft that the desk declines says why and exits 1, with --json too', async () => {
    const row = await makeWork(store.db, bakery.id, { title: 'Nobody to write to' });
    const plain = await desk(store.target, 'work', 'draft', String(row.id));
    expect(plain.code).toBe(1);
    expect(plain.out).toMatch(/^Not drafted: .+\n$/);
    const json = await desk(store.target, 'work', 'draft', String(row.id), '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ drafted: false, reason: expect.any(String) });
  });
});
