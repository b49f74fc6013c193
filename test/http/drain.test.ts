import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../helpers/factories.ts';
import { saidLines, startServerProcess } from '../helpers/process.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { connectMailbox } from './writes-helpers.ts';

// SIGTERM while a run is in flight: the stopping server answers new requests 503, the run is
// recorded as interrupted at the drain limit (its request answered, the row put back), and
// after a restart nothing is left `running`. The run sends through a mail server that never
// answers, so only the drain limit can end it.

describe.each(DIALECTS)('stopping with a run in flight ($name)', ({ open }) => {
  let store: TestStore;
  let smtp: TestSmtp;

  beforeAll(async () => {
    store = await open();
    smtp = await startSmtpServer({ mode: 'hang' });
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  it('turns new requests away with 503, records the run as interrupted, and leaves nothing running', async () => {
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    const row = await makeWork(store.db, d.desk.id, {
      title: 'Ask for the gutter quote',
      class: 'reach_out',
      contact_email: 'gus@gutters.test',
    });
    await makeDraft(store.db, d.desk.id, row.id, { to: 'gus@gutters.test' });
    const auth = { authorization: `Bearer ${d.key}` };
    const runsOf = () =>
      store.db.selectFrom('runs').select(['id', 'status']).where('work_id', '=', row.id).orderBy('id').execute();

    const server = await startServerProcess(store.target, {
      DESK_DRAIN_TIMEOUT: '1s',
      DESK_RUN_TIMEOUT: '10m',
      DESK_MAIL_TIMEOUT: '10m',
    });
    const run = fetch(`${server.url}/api/v1/work/${row.id}/run`, { method: 'POST', headers: auth });
    for (let i = 0; i < 400 && (await runsOf()).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await runsOf()).toEqual([expect.objectContaining({ status: 'running' })]);

    const stopped = server.stop();
    for (let i = 0; i < 400 && !server.output().includes('Stopping:'); i++) await new Promise((r) => setTimeout(r, 25));
    const refused = await fetch(`${server.url}/api/v1/me`, { headers: auth });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).error).toMatchObject({ code: 'unavailable' });

    const answer = await run;
    expect(answer.status).toBe(200);
    const data = (await answer.json()).data;
    expect(data).toMatchObject({ ok: false, closed: false });
    expect(data.outcome).toContain('was interrupted');
    await stopped;
    // The last line says it is over, so a person at the terminal does not wait on.
    expect(saidLines(server.output()).at(-1)).toBe('Stopped.');

    expect(await runsOf()).toEqual([expect.objectContaining({ status: 'interrupted' })]);
    expect((await findWork(store.db, d.desk.id, row.id))!.status).toBe('open');

    const again = await startServerProcess(store.target);
    try {
      const item = await (await fetch(`${again.url}/api/v1/work/${row.id}`, { headers: auth })).json();
      expect(item.data.work.status).toBe('open');
      const running = await store.db.selectFrom('runs').select('id').where('status', '=', 'running').execute();
      expect(running).toEqual([]);
    } finally {
      await again.stop();
    }
  }, 120_000);
});
