import { describe, expect, it } from 'vitest';
import type { WorkRow } from '../../store/schema.ts';
import { PERMISSION_CLASSES, WORK_STATUSES } from '../vocab.ts';
import { addDays } from '../dates.ts';
import { daysToDue, daysWaiting, deriveAction, isAllowed, isOverdue, toWorkItem, type DeriveInput } from './derive.ts';

// D10 as a table: each rule of the precedence, the labels, and the rules that always hold.

const TODAY = '2026-11-22';
const ALL_GRANTABLE = new Set(['reach_out', 'chase', 'file', 'commit']);

function row(over: Partial<WorkRow> = {}): WorkRow {
  return {
    id: 1,
    desk_id: 'dsk_test',
    title: 'Renew the licence',
    detail: null,
    kind: 'licence_renewal',
    status: 'open',
    due_date: '2026-12-01',
    due_key: '2026-12-01',
    priority: 50,
    class: 'reach_out',
    needs_person: 0,
    assignee: null,
    chase_after_days: 7,
    max_chases: 3,
    chases: 0,
    desk_acted_at: null,
    contact_name: 'Jo Lane',
    contact_email: 'jo@example.test',
    waiting_on: null,
    waiting_since: null,
    last_error: null,
    arrangement_id: null,
    unit_id: null,
    playbook_id: null,
    watch_id: null,
    watch_date: null,
    created_at: '2026-11-01T09:00:00.000Z',
    updated_at: '2026-11-01T09:00:00.000Z',
    closed_at: null,
    replied_by: null,
    replied_at: null,
    ...over,
  };
}

function input(
  over: Partial<WorkRow> = {},
  opts: { draft?: boolean; grants?: Iterable<string>; timezone?: string } = {},
): DeriveInput {
  return {
    row: row(over),
    hasDraft: opts.draft ?? false,
    grants: new Set(opts.grants ?? []),
    today: TODAY,
    timezone: opts.timezone ?? 'UTC',
  };
}

const action = (over: Partial<WorkRow> = {}, opts: Parameters<typeof input>[1] = {}) => deriveAction(input(over, opts));

describe('a reply waiting to be read', () => {
  it("names who replied and the day, in the desk's timezone", () => {
    const a = action(
      { replied_by: 'Sam Oven', replied_at: '2026-11-21T23:30:00.000Z' },
      { timezone: 'Pacific/Kiritimati' },
    );
    expect(a?.hint).toBe('Sam Oven replied on 2026-11-22; read it and decide what happens next.');
  });
});

describe('D10: the action, first match wins', () => {
  const cases: Array<[string, Partial<WorkRow>, Parameters<typeof input>[1], string | null, string | null]> = [
    // [rule, row, options, type, label]
    ['1 done → null', { status: 'done' }, {}, null, null],
    ['1 closed → null', { status: 'closed' }, {}, null, null],
    ['1 done beats last_error', { status: 'done', last_error: 'boom' }, {}, null, null],
    ['1 closed beats a draft', { status: 'closed' }, { draft: true, grants: ALL_GRANTABLE }, null, null],
    ['2 last_error → fix', { last_error: 'Portal rejected the upload' }, {}, 'fix', 'Needs a look'],
    ['2 fix beats needs_person', { last_error: 'x', needs_person: 1 }, {}, 'fix', 'Needs a look'],
    ['2 fix beats sign', { last_error: 'x', class: 'sign' }, {}, 'fix', 'Needs a look'],
    [
      '2 fix beats a draft, allowed',
      { last_error: 'x' },
      { draft: true, grants: ALL_GRANTABLE },
      'fix',
      'Needs a look',
    ],
    [
      '2 fix beats waiting_on',
      { last_error: 'x', waiting_on: 'Sam', waiting_since: '2026-11-01' },
      {},
      'fix',
      'Needs a look',
    ],
    ['2 fix on a waiting row', { last_error: 'x', status: 'waiting' }, {}, 'fix', 'Needs a look'],
    [
      '2 fix with nobody to write to',
      { last_error: 'x', contact_email: null, contact_name: null },
      {},
      'fix',
      'Needs a look',
    ],
    [
      '2b a reply to read → own',
      { replied_by: 'Sam Oven', replied_at: '2026-11-21T15:00:00.000Z' },
      {},
      'own',
      'Read the reply',
    ],
    [
      '2b a reply beats a draft, allowed: no chase goes to somebody who replied',
      { replied_by: 'Sam Oven', replied_at: '2026-11-21T15:00:00.000Z' },
      { draft: true, grants: ALL_GRANTABLE },
      'own',
      'Read the reply',
    ],
    [
      '2b a reply beats needs_person',
      { replied_by: 'Sam Oven', replied_at: '2026-11-21T15:00:00.000Z', needs_person: 1 },
      {},
      'own',
      'Read the reply',
    ],
    [
      '2b fix beats a reply (a bounce after it)',
      { replied_by: 'Sam Oven', replied_at: '2026-11-21T15:00:00.000Z', last_error: 'x' },
      {},
      'fix',
      'Needs a look',
    ],
    [
      '2b a finished row with a reply → null',
      { replied_by: 'Sam', replied_at: '2026-11-21T15:00:00.000Z', status: 'done' },
      {},
      null,
      null,
    ],
    ['3 needs_person → own', { needs_person: 1 }, {}, 'own', 'Assign to me'],
    ['3 sign → own', { class: 'sign' }, {}, 'own', 'Assign to me'],
    ['3 own beats a draft', { needs_person: 1 }, { draft: true, grants: ALL_GRANTABLE }, 'own', 'Assign to me'],
    ['3 sign beats a draft', { class: 'sign' }, { draft: true }, 'own', 'Assign to me'],
    [
      '3 own beats waiting_on',
      { needs_person: 1, waiting_on: 'Sam', waiting_since: '2026-11-01' },
      {},
      'own',
      'Assign to me',
    ],
    ['4 draft, allowed → run now', {}, { draft: true, grants: ALL_GRANTABLE }, 'run', 'Run it now'],
    ['4 draft, not granted → approve', {}, { draft: true }, 'approve', 'Approve and send'],
    [
      '4 draft on money → approve',
      { class: 'money' },
      { draft: true, grants: ['money'] },
      'approve',
      'Approve and send',
    ],
    [
      '4 draft, unclassified → approve',
      { class: null },
      { draft: true, grants: ALL_GRANTABLE },
      'approve',
      'Approve and send',
    ],
    [
      '4 draft beats waiting_on',
      { waiting_on: 'Sam', waiting_since: '2026-11-01' },
      { draft: true },
      'approve',
      'Approve and send',
    ],
    [
      '5 waiting_on, past chase_after_days → nudge',
      { waiting_on: 'Sam', waiting_since: '2026-11-10' },
      {},
      'nudge',
      'Chase it',
    ],
    [
      '5 waiting_on, exactly chase_after_days → nudge',
      { waiting_on: 'Sam', waiting_since: '2026-11-15' },
      {},
      'nudge',
      'Chase it',
    ],
    [
      '5 waiting_on, row chase_after_days honoured',
      { waiting_on: 'Sam', waiting_since: '2026-11-19', chase_after_days: 3 },
      {},
      'nudge',
      'Chase it',
    ],
    [
      '5 waiting_on, a day short → wait Nd',
      { waiting_on: 'Sam', waiting_since: '2026-11-16' },
      {},
      'wait',
      'Waiting 6d',
    ],
    [
      '5 waiting_on since today → Waiting',
      { waiting_on: 'Sam', waiting_since: '2026-11-22T08:00:00.000Z' },
      {},
      'wait',
      'Waiting',
    ],
    ['5 waiting_on one day → Waiting 1d', { waiting_on: 'Sam', waiting_since: '2026-11-21' }, {}, 'wait', 'Waiting 1d'],
    [
      '5 waiting_on beats allowed run',
      { waiting_on: 'Sam', waiting_since: '2026-11-20' },
      { grants: ALL_GRANTABLE },
      'wait',
      'Waiting 2d',
    ],
    [
      '5 status waiting with waiting_on → wait',
      { status: 'waiting', waiting_on: 'Sam', waiting_since: '2026-11-20' },
      {},
      'wait',
      'Waiting 2d',
    ],
    ['6 status waiting, nothing awaited → null', { status: 'waiting' }, { grants: ALL_GRANTABLE }, null, null],
    ['6 status waiting, nobody to write to → null', { status: 'waiting', contact_email: null }, {}, null, null],
    ['7 allowed with somebody to write to → run', {}, { grants: ['reach_out'] }, 'run', 'Let the desk do it'],
    [
      '7 allowed with a playbook → run',
      { class: 'file', playbook_id: 3, contact_email: null, contact_name: null },
      { grants: ['file'] },
      'run',
      'Let the desk do it',
    ],
    ['7 in_progress, allowed → run', { status: 'in_progress' }, { grants: ALL_GRANTABLE }, 'run', 'Let the desk do it'],
    [
      '8 nobody and no playbook → answer',
      { contact_email: null, contact_name: null },
      {},
      'answer',
      'How does this one get done?',
    ],
    [
      '8 a name but no address → answer',
      { contact_email: null, contact_name: 'Jo Lane' },
      {},
      'answer',
      'How does this one get done?',
    ],
    [
      '8 answer even when allowed',
      { contact_email: null },
      { grants: ALL_GRANTABLE },
      'answer',
      'How does this one get done?',
    ],
    ['9 somebody to write to, not granted → prepare', {}, {}, 'prepare', 'Prepare this'],
    [
      '9 granted another class only → prepare',
      { class: 'chase' },
      { grants: ['reach_out'] },
      'prepare',
      'Prepare this',
    ],
    ['9 money with a contact → prepare', { class: 'money' }, { grants: ['money'] }, 'prepare', 'Prepare this'],
    ['9 unclassified with a contact → prepare', { class: null }, { grants: ALL_GRANTABLE }, 'prepare', 'Prepare this'],
    [
      '9 playbook but not granted → prepare',
      { class: 'file', playbook_id: 3, contact_email: null, contact_name: null },
      {},
      'prepare',
      'Prepare this',
    ],
  ];

  it.each(cases)('%s', (_rule, over, opts, type, label) => {
    const a = action(over, opts);
    if (type === null) {
      expect(a).toBeNull();
    } else {
      expect(a).toMatchObject({ type, label });
      expect(a!.hint).toMatch(/\S.*[.!?]$/);
    }
  });
});

describe("hints are sentences from the row's facts", () => {
  it('fix quotes the error', () => {
    expect(action({ last_error: 'Portal rejected the upload' })!.hint).toContain('Portal rejected the upload');
  });
  it('nudge and wait name who and how long', () => {
    expect(action({ waiting_on: 'Sam Oven', waiting_since: '2026-11-10' })!.hint).toMatch(/Sam Oven.*12 days/);
    expect(action({ waiting_on: 'Sam Oven', waiting_since: '2026-11-19' })!.hint).toMatch(/Sam Oven.*3 days/);
  });
  it('approve names the recipient and says nothing has gone out', () => {
    const h = action({}, { draft: true })!.hint;
    expect(h).toContain('Jo Lane');
    expect(h).toMatch(/Nothing has been sent/);
  });
  it('own names the person the owner gave the row to, in the label and the hint alike', () => {
    const given = action({ needs_person: 1, assignee: 'Sam' })!;
    expect(given.label).toBe('Check with Sam');
    expect(given.hint).toMatch(/^It is with Sam; the desk has prepared what it can\./);
    expect(action({ needs_person: 1 })!.label).toBe('Assign to me');
    expect(action({ class: 'sign' })!.hint).toMatch(/^It needs a signature/);
  });
  it('own, once the owner took the row, is theirs to do, with nobody to check with', () => {
    const taken = action({ needs_person: 1, assignee: 'owner' })!;
    expect(taken).toMatchObject({ type: 'own', label: 'Yours to do' });
    expect(taken.hint).toMatch(/^You took it on; the desk has prepared what it can\./);
  });
  it('prepare and run say when it is due', () => {
    expect(action({ due_date: '2026-11-20' })!.hint).toContain('due 2 days ago');
    expect(action({ due_date: TODAY }, { grants: ALL_GRANTABLE })!.hint).toContain('due today');
    expect(action({ due_date: null })!.hint).toContain('no due date');
  });
  it('never prints a missing value', () => {
    const rows: Array<Partial<WorkRow>> = [
      { class: 'file', playbook_id: 3, contact_email: null, contact_name: null },
      { contact_email: null, contact_name: null },
      { contact_name: null },
    ];
    for (const r of rows) {
      for (const grants of [[], ALL_GRANTABLE]) {
        for (const draft of [false, true])
          expect(action(r, { grants, draft })?.hint ?? '').not.toMatch(/null|undefined/);
      }
    }
  });
});

describe('allowed: the granted class, never money, sign or none', () => {
  it.each([
    ['reach_out', ['reach_out'], true],
    ['chase', ['chase', 'file'], true],
    ['file', ['reach_out'], false],
    ['commit', [], false],
    ['money', ['money'], false],
    ['sign', ['sign'], false],
    [null, ['reach_out', 'chase', 'file', 'commit', 'money', 'sign'], false],
  ] as const)('%s with grants %j → %s', (cls, grants, expected) => {
    expect(isAllowed(cls, new Set(grants))).toBe(expected);
  });
});

describe('the rules that always hold', () => {
  // Every combination of the facts that matter, in every status and class.
  const combos: Array<{ over: Partial<WorkRow>; draft: boolean; grants: Set<string> }> = [];
  for (const status of WORK_STATUSES)
    for (const cls of [...PERMISSION_CLASSES, null])
      for (const last_error of [null, 'failed'])
        for (const needs_person of [0, 1])
          for (const waiting_on of [null, 'Sam'])
            for (const contact_email of [null, 'jo@example.test'])
              for (const playbook_id of [null, 4])
                for (const draft of [false, true])
                  for (const grants of [new Set<string>(), new Set(PERMISSION_CLASSES)])
                    combos.push({
                      over: {
                        status,
                        class: cls,
                        last_error,
                        needs_person,
                        waiting_on,
                        waiting_since: waiting_on ? '2026-11-20' : null,
                        contact_email,
                        playbook_id,
                      },
                      draft,
                      grants,
                    });

  it('a row with last_error that is not finished always reports fix', () => {
    for (const c of combos.filter((c) => c.over.last_error && !['done', 'closed'].includes(c.over.status!))) {
      expect(action(c.over, c)?.type).toBe('fix');
    }
  });

  it('money, sign and unclassified rows are never allowed, whatever is granted', () => {
    for (const c of combos.filter(
      (c) => c.over.class === 'money' || c.over.class === 'sign' || c.over.class === null,
    )) {
      expect(toWorkItem(input(c.over, c)).allowed).toBe(false);
    }
  });

  it('run is never shown on a row whose allowed is false', () => {
    let runs = 0;
    for (const c of combos) {
      const item = toWorkItem(input(c.over, c));
      if (item.action?.type === 'run') {
        runs += 1;
        expect(item.allowed).toBe(true);
      }
    }
    expect(runs).toBeGreaterThan(0);
  });

  it('finished rows have no action; open ones always do unless merely waiting', () => {
    for (const c of combos) {
      const a = action(c.over, c);
      if (c.over.status === 'done' || c.over.status === 'closed') expect(a).toBeNull();
      else if (a === null) expect(c.over).toMatchObject({ status: 'waiting', waiting_on: null, last_error: null });
    }
  });

  it('the label always belongs to the type', () => {
    const labels: Record<string, RegExp> = {
      approve: /^Approve and send$/,
      run: /^(Let the desk do it|Run it now)$/,
      nudge: /^Chase it$/,
      wait: /^Waiting( \d+d)?$/,
      own: /^(Assign to me|Yours to do|Check with .+)$/,
      answer: /^How does this one get done\?$/,
      prepare: /^Prepare this$/,
      fix: /^Needs a look$/,
    };
    for (const c of combos) {
      const a = action(c.over, c);
      if (a) expect(a.label).toMatch(labels[a.type]!);
    }
  });
});

describe('days and dates', () => {
  it("days_to_due counts from the desk's today; negative when overdue", () => {
    expect(daysToDue('2026-11-25', TODAY)).toBe(3);
    expect(daysToDue(TODAY, TODAY)).toBe(0);
    expect(daysToDue('2026-11-12', TODAY)).toBe(-10);
    expect(daysToDue(null, TODAY)).toBeNull();
    expect(daysToDue('2027-01-01', TODAY)).toBe(40);
  });

  it('overdue is a due date strictly before today', () => {
    expect(isOverdue('2026-11-21', TODAY)).toBe(true);
    expect(isOverdue(TODAY, TODAY)).toBe(false);
    expect(isOverdue('2026-11-23', TODAY)).toBe(false);
    expect(isOverdue(null, TODAY)).toBe(false);
  });

  it("days_waiting is null with nothing awaited, else days since it went out, in the desk's timezone", () => {
    expect(daysWaiting(row({ waiting_on: null, waiting_since: '2026-11-01' }), TODAY, 'UTC')).toBeNull();
    expect(daysWaiting(row({ waiting_on: 'Sam', waiting_since: '2026-11-10' }), TODAY, 'UTC')).toBe(12);
    // 23:30 UTC on the 20th is already the 21st in Auckland.
    expect(daysWaiting(row({ waiting_on: 'Sam', waiting_since: '2026-11-20T23:30:00.000Z' }), TODAY, 'UTC')).toBe(2);
    expect(
      daysWaiting(row({ waiting_on: 'Sam', waiting_since: '2026-11-20T23:30:00.000Z' }), TODAY, 'Pacific/Auckland'),
    ).toBe(1);
    // With no start recorded, the last change stands in; never negative.
    expect(
      daysWaiting(
        row({ waiting_on: 'Sam', waiting_since: null, updated_at: '2026-11-19T10:00:00.000Z' }),
        TODAY,
        'UTC',
      ),
    ).toBe(3);
    expect(daysWaiting(row({ waiting_on: 'Sam', waiting_since: '2026-11-30' }), TODAY, 'UTC')).toBe(0);
  });
});

describe('the work item', () => {
  it('carries all sixteen fields, derived from the row', () => {
    const item = toWorkItem(
      input(
        { id: 7, due_date: '2026-11-20', class: 'chase', waiting_on: 'Sam', waiting_since: '2026-11-19', priority: 80 },
        { draft: true, grants: ['chase'] },
      ),
    );
    expect(Object.keys(item).sort()).toEqual(
      [
        'action',
        'allowed',
        'days_to_due',
        'days_waiting',
        'detail',
        'due_date',
        'has_draft',
        'id',
        'kind',
        'last_error',
        'overdue',
        'permission',
        'priority',
        'status',
        'title',
        'waiting_on',
      ].sort(),
    );
    expect(item).toMatchObject({
      id: 7,
      due_date: '2026-11-20',
      days_to_due: -2,
      overdue: true,
      priority: 80,
      waiting_on: 'Sam',
      days_waiting: 3,
      permission: 'chase',
      allowed: true,
      has_draft: true,
      action: { type: 'run', label: 'Run it now' },
    });
  });

  it('has_draft is what it is told: only a message in state drafted', () => {
    expect(toWorkItem(input({}, { draft: false })).has_draft).toBe(false);
    expect(toWorkItem(input({}, { draft: true })).has_draft).toBe(true);
  });

  it("names the draft's own address when it goes somewhere other than the row's contact", () => {
    const hint = (draftTo: string | null | undefined, grants: string[] = ['reach_out']) =>
      toWorkItem({
        ...input(
          { class: 'reach_out', contact_name: 'Jo Bloggs', contact_email: 'jo@acme.test' },
          { draft: true, grants },
        ),
        draftTo,
      }).action?.hint;
    expect(hint('accounts@acme.test')).toBe(
      'A message to accounts@acme.test is ready and the desk may send it; run it now rather than wait.',
    );
    expect(hint('accounts@acme.test', [])).toBe(
      'A message to accounts@acme.test is prepared; it goes out once you approve it. Nothing has been sent.',
    );
    // The contact's own address in another letter case, or no address known: the contact's name.
    for (const same of [' JO@Acme.test ', null, undefined, ''])
      expect(hint(same)).toMatch(/^A message to Jo Bloggs is/);
  });
});

describe('the wait hint, with chases left and without', () => {
  it('promises a chase only while one is left', () => {
    const waiting = { waiting_on: 'Sam', waiting_since: addDays(TODAY, -2) };
    expect(deriveAction(input(waiting))?.hint).toBe('Waiting on Sam for 2 days; it is chased after 7 days.');
    expect(deriveAction(input({ ...waiting, chases: 3 }))?.hint).toBe(
      'Waiting on Sam for 2 days; no chase is left (3 of 3 sent), so after 7 days without an answer a person follows it up.',
    );
    expect(deriveAction(input({ ...waiting, max_chases: 0 }))?.hint).toContain('no chase is left (0 of 0 sent)');
  });
});
