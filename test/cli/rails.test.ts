import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBusiness } from '../../src/domain/business/read.ts';
import { importDemo } from '../../src/domain/business/demo.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { desk } from '../helpers/cli.ts';
import { DIALECTS, type TestStore } from '../helpers/db.ts';
import { makeDesk } from '../helpers/factories.ts';

// The rails on what a desk does on its own, set from the CLI and the business file: a bad value
// is refused naming its field, and nothing is changed.

describe('rails in the business file', () => {
  const file = (desk: Record<string, unknown>, work: Record<string, unknown>[] = []) => ({
    desk: { name: 'Shop', slug: 'shop', ...desk },
    work,
  });
  const errorsOf = (doc: unknown): string[] => {
    try {
      readBusiness(doc, new Date(TEST_NOW));
      return [];
    } catch (err) {
      return (err as { details?: { errors: string[] } }).details?.errors ?? [];
    }
  };

  it('reads hours, daily_cap, act_within_days and paused, and max_chases on a row, with their defaults', () => {
    const plan = readBusiness(
      file({ hours: 'Sat-Sun 10:00-14:00', daily_cap: 5, act_within_days: 0, paused: true }, [
        { title: 'Chase it', max_chases: 1 },
        { title: 'Default' },
      ]),
      new Date(TEST_NOW),
    );
    expect(plan.desk).toMatchObject({ hours: 'sat-sun 10:00-14:00', daily_cap: 5, act_within_days: 0, paused: true });
    expect(plan.work.map((w) => w.max_chases)).toEqual([1, 3]);
    expect(readBusiness(file({}), new Date(TEST_NOW)).desk).toMatchObject({
      hours: 'mon-fri 09:00-17:00',
      daily_cap: 20,
      act_within_days: 14,
      paused: false,
    });
  });

  it('refuses a bad value naming the field', () => {
    const errors = errorsOf(
      file({ hours: 'nine to five', daily_cap: 1001, act_within_days: 366, paused: 'yes' }, [
        { title: 'X', max_chases: -1 },
      ]),
    );
    expect(errors).toEqual([
      expect.stringMatching(/^desk\.hours: "nine to five" is not working hours/),
      expect.stringMatching(/^desk\.daily_cap: 1001 must be a whole number from 0 to 1000/),
      expect.stringMatching(/^desk\.act_within_days: 366 must be a whole number from 0 to 365/),
      expect.stringMatching(/^desk\.paused: must be true or false/),
      expect.stringMatching(/^work\[0\] "X"\.max_chases: -1 must be between 0 and 100/),
    ]);
  });
});

describe.each(DIALECTS)('desk desks set, pause and resume ($name)', ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store?.close();
  });
  const railsOf = async (id: string) =>
    store.db
      .selectFrom('desks')
      .select(['hours', 'daily_cap', 'act_within_days', 'paused'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('sets the rails, and refuses a bad one naming the field with nothing changed', async () => {
    const d = await makeDesk(store.db);
    const ok = await desk(
      store.target,
      'desks',
      'set',
      d.desk.slug,
      '--hours',
      'mon-sat 08:00-18:00',
      '--daily-cap',
      '7',
      '--act-within-days',
      '30',
    );
    expect(ok.err).toBe('');
    expect(ok.out).toContain('Hours: mon-sat 08:00-18:00; daily cap: 7; acts up to 30 days ahead.');
    const set = { hours: 'mon-sat 08:00-18:00', daily_cap: 7, act_within_days: 30, paused: 0 };
    expect(await railsOf(d.desk.id)).toEqual(set);

    for (const [args, field] of [
      [['--hours', 'weekdays'], '--hours'],
      [['--daily-cap', '1001'], '--daily-cap'],
      [['--daily-cap', 'lots'], '--daily-cap'],
      [['--act-within-days', '-1'], '--act-within-days'],
      [['--hours', 'always', '--act-within-days', '400'], '--act-within-days'],
    ] as const) {
      const bad = await desk(store.target, 'desks', 'set', d.desk.slug, ...args);
      expect(bad.code, args.join(' ')).not.toBe(0);
      // Named by the flag typed, not the column (P-cli-4).
      expect(bad.err).toContain(`Nothing was changed. ${field}: `);
      expect(await railsOf(d.desk.id)).toEqual(set);
    }
    // A number too long to hold exactly is named as it was typed.
    const huge = await desk(store.target, 'desks', 'set', d.desk.slug, '--daily-cap', '99999999999999999999');
    expect(huge.err).toBe(
      'desk: Nothing was changed. --daily-cap: "99999999999999999999" must be a whole number from 0 to 1000 (acts the desk may do in one of its days).\n',
    );
    const two = await desk(store.target, 'desks', 'set', d.desk.slug, '--hours', 'never', '--daily-cap', '5000');
    expect(two.err.split('\n').filter(Boolean)).toEqual([
      'desk: Nothing was changed:',
      expect.stringMatching(/^ {2}--hours: "never" is not working hours/),
      expect.stringMatching(/^ {2}--daily-cap: 5000 must be a whole number from 0 to 1000/),
    ]);
    const one = await desk(store.target, 'desks', 'set', d.desk.slug, '--act-within-days', '1');
    expect(one.out).toContain('; acts up to 1 day ahead.');
  });

  it('pauses and resumes; the list says paused with the way to resume', async () => {
    const demo = await importDemo(store.db, { now: new Date(TEST_NOW) });
    expect(await railsOf(demo.desk.id)).toMatchObject({ hours: 'always', paused: 1 });
    const listed = await desk(store.target, 'desks', 'list');
    expect(listed.out).toContain('paused (desk desks resume demo-bakery)');
    const json = (await desk(store.target, 'desks', 'list', '--json')).json();
    expect(json.find((x: { slug: string }) => x.slug === 'demo-bakery')).toMatchObject({ paused: true });

    const resumed = await desk(store.target, 'desks', 'resume', 'demo-bakery');
    expect(resumed.out).toContain('demo-bakery is working on its own.');
    expect((await railsOf(demo.desk.id)).paused).toBe(0);
    expect((await desk(store.target, 'desks', 'list')).out).not.toContain('paused (');

    const paused = await desk(store.target, 'desks', 'pause', 'demo-bakery');
    expect(paused.out).toContain('paused: it does nothing on its own (resume with: desk desks resume demo-bakery)');
    const pass = await desk(store.target, 'work', 'pass', '--desk', 'demo-bakery');
    expect(pass.out).toContain('demo-bakery: 0 acts; paused');
  });
});
