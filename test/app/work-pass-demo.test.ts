import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDemo } from '../../src/domain/business/demo.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { desk } from '../helpers/cli.ts';
import { sqliteStore, type TestStore } from '../helpers/db.ts';
import { startSmtpServer, type TestSmtp } from '../helpers/smtp.ts';
import { eventsOf, timelineOf } from '../http/writes-helpers.ts';

// The "done when" on the demo: resumed, one pass chases the quiet oven-repair supplier
// and carries out the two granted rows once; a second pass sends nothing. The demo's mailbox is
// pointed at a loopback SMTP server on a free port, so the test shares no port with others.

describe('the demo desk at work', () => {
  let store: TestStore;
  let smtp: TestSmtp;
  beforeAll(async () => {
    store = await sqliteStore();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  it('does nothing while paused; resumed, it chases once and carries out its two granted rows once', async () => {
    const demo = await importDemo(store.db, { now: new Date(TEST_NOW) });
    const mailbox = await store.db
      .selectFrom('connections')
      .selectAll()
      .where('desk_id', '=', demo.desk.id)
      .where('category', '=', 'mail')
      .executeTakeFirstOrThrow();
    await store.db
      .updateTable('connections')
      .set({ config: JSON.stringify({ ...JSON.parse(mailbox.config), port: smtp.port }) })
      .where('id', '=', mailbox.id)
      .execute();

    expect((await desk(store.target, 'work', 'pass', '--desk', 'demo-bakery')).out).toContain('paused');
    expect(smtp.received).toHaveLength(0);

    await desk(store.target, 'desks', 'resume', 'demo-bakery');
    const first = await desk(store.target, 'work', 'pass', '--desk', 'demo-bakery', '--json');
    const acts = first.json().desks[0].acts as Array<{ work_id: number; as: string; ok: boolean }>;
    expect(acts.map((a) => [a.work_id, a.as, a.ok]).sort()).toEqual(
      [
        [demo.refs['chase-quote'], 'chase', true],
        [demo.refs['insurance-chase'], 'run', true],
        [demo.refs['window-quote'], 'run', true],
      ].sort(),
    );
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([
      'ana@clearpanes.test',
      'lee@harbour.test',
      'sam@ovens.test',
    ]);
    const events = await eventsOf(store.db, demo.desk.id, 'sent');
    expect(events.map((e) => e.data.actor)).toEqual(['desk', 'desk', 'desk']);
    for (const a of acts)
      expect((await timelineOf(store.db, demo.desk.id, a.work_id)).map((t) => t.kind)).toContain('run_finished');

    const second = await desk(store.target, 'work', 'pass', '--desk', 'demo-bakery');
    expect(second.out).toContain('demo-bakery: 0 acts.');
    expect(smtp.received).toHaveLength(3);
  });
});
