import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reopenStore, sqliteStore, type TestStore } from '../../test/helpers/db.ts';
import { makeDesk, makeDraft, makeWork } from '../../test/helpers/factories.ts';
import { startSmtpServer, type TestSmtp } from '../../test/helpers/smtp.ts';
import { TEST_NOW } from '../../test/helpers/app.ts';
import { connectMailbox, timelineOf } from '../../test/http/writes-helpers.ts';
import { findWork } from '../../src/store/repositories/work.ts';
import { updateDeskRails } from '../../src/store/repositories/desks.ts';

// Ctrl-C while `desk run` or `desk work pass` is sending through a mail server that never
// answers: the run is recorded as interrupted and its row put back, as a stopping server does
// (P-cli-10), rather than left `in_progress` until a later pass calls it abandoned.

describe('Ctrl-C during a run from the terminal', () => {
  let store: TestStore;
  let smtp: TestSmtp;

  beforeAll(async () => {
    store = await sqliteStore();
    smtp = await startSmtpServer({ mode: 'hang' });
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  async function rowToSend(title: string) {
    const d = await makeDesk(store.db, { grants: ['reach_out'] });
    await updateDeskRails(store.db, d.desk.id, { hours: 'always', paused: 0 });
    await connectMailbox(store.db, d.desk.id, smtp.port);
    const row = await makeWork(store.db, d.desk.id, { title, class: 'reach_out', contact_email: 'gus@gutters.test' });
    await makeDraft(store.db, d.desk.id, row.id, { to: 'gus@gutters.test' });
    return { desk: d.desk, row };
  }

  const runsOf = (workId: number) =>
    store.db.selectFrom('runs').select(['id', 'status']).where('work_id', '=', workId).orderBy('id').execute();

  const interrupted = (workId: number, ...args: string[]) => stoppedBy('SIGINT', workId, ...args);

  async function stoppedBy(signal: NodeJS.Signals, workId: number, ...args: string[]) {
    const child = spawn(process.execPath, ['bin/desk.js', ...args], {
      env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW, DESK_MAIL_TIMEOUT: '10m' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (let i = 0; i < 800 && (await runsOf(workId)).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await runsOf(workId)).toEqual([expect.objectContaining({ status: 'running' })]);
    child.kill(signal);
    return { code: await closed, out, err };
  }

  it('`desk run` records the run as interrupted, puts the row back and exits 130', async () => {
    const { row } = await rowToSend('Ask for the gutter quote');
    const r = await interrupted(row.id, 'run', String(row.id));
    expect(r.code).toBe(130);
    expect(r.err).toContain('Stopping:');
    expect(r.out).toContain('Not done: The command was stopped (Ctrl-C) before the run finished');
    expect(await runsOf(row.id)).toEqual([expect.objectContaining({ status: 'interrupted' })]);
    expect((await findWork(store.db, row.desk_id, row.id))!.status).toBe('open');
    const history = await timelineOf(store.db, row.desk_id, row.id);
    expect(history.filter((t) => t.kind === 'run_interrupted').map((t) => t.text)).toEqual([
      "A run was interrupted. The command was stopped (Ctrl-C) before the run finished; the message's own record says whether it was sent.",
    ]);
  }, 60_000);

  it('`desk work pass` told to stop (SIGTERM) stops after the act in hand, recorded as interrupted by it', async () => {
    const { desk, row } = await rowToSend('Ask for the drain quote');
    const r = await stoppedBy('SIGTERM', row.id, 'work', 'pass', '--desk', desk.slug);
    expect(r.code).toBe(130);
    expect(r.err).toContain('Stopping:');
    // Its answer is printed before it stops, as `desk run`'s is.
    expect(r.out).toContain(`${desk.slug}: `);
    expect(r.out).toContain(`#${row.id} ran: `);
    expect(await runsOf(row.id)).toEqual([expect.objectContaining({ status: 'interrupted' })]);
    expect((await findWork(store.db, row.desk_id, row.id))!.status).toBe('open');
    const history = await timelineOf(store.db, row.desk_id, row.id);
    expect(history.filter((t) => t.kind === 'run_interrupted').map((t) => t.text)).toEqual([
      "A run was interrupted. The command was stopped (SIGTERM) before the run finished; the message's own record says whether it was sent.",
    ]);
  }, 60_000);

  it('`desk work complete` says its message is on its way, and at Ctrl-C that it may have gone; it exits 130', async () => {
    const { row } = await rowToSend('Ask for the roof quote');
    const child = spawn(process.execPath, ['bin/desk.js', 'work', 'complete', String(row.id)], {
      env: { ...process.env, DESK_DATABASE_URL: store.target, DESK_NOW: TEST_NOW, DESK_MAIL_TIMEOUT: '10m' },
    });
    let err = '';
    const sending = new Promise<void>((resolve) =>
      child.stderr.on('data', (c) => {
        err += c;
        if (err.includes('Sending ')) resolve();
      }),
    );
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await sending;
    expect(err).toContain('to gus@gutters.test...');
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(err).toContain('Stopping: a message on its way may already have gone');
    expect(err).toContain(`desk work show ${row.id}`);
  }, 60_000);

  it('`desk import` stopped part way says nothing was imported, and the database keeps none of it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'desk-import-stop-'));
    try {
      const file = path.join(dir, 'big.json');
      const work = Array.from({ length: 40_000 }, (_, i) => ({ title: `Row ${i}`, priority: (i % 100) + 1 }));
      writeFileSync(file, JSON.stringify({ desk: { name: 'Big Cafe', slug: 'big-cafe' }, work }));
      const db = path.join(dir, 'desk.db');
      const child = spawn(process.execPath, ['bin/desk.js', 'import', file], {
        env: { ...process.env, DESK_DATABASE_URL: db, DESK_NOW: TEST_NOW },
      });
      let err = '';
      const progressed = new Promise<void>((resolve) =>
        child.stderr.on('data', (c) => {
          err += c;
          if (err.includes('Importing: ')) resolve();
        }),
      );
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await progressed;
      child.kill('SIGINT');
      expect(await closed).toBe(130);
      expect(err).toContain('Stopped: nothing was imported; a business file goes in whole or not at all.');
      const left = await reopenStore(db);
      try {
        expect(await left.db.selectFrom('desks').select('id').execute()).toEqual([]);
        expect(await left.db.selectFrom('work').select('id').execute()).toEqual([]);
      } finally {
        await left.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
