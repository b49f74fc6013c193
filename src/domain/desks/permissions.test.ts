import { describe, expect, it } from 'vitest';
import { PERMISSION_CLASSES } from '../vocab.ts';
import { summarisePermissions, type OpenGroup } from './permissions.ts';

// D21: per open row with a class, covered if out with somebody, else doing if allowed, else
// asking; unclassified rows always ask. needs_you + with_desk + Σ covered = the open queue.

const GRANTED = new Set(['reach_out', 'chase']);
const zero = { doing: 0, asking: 0, covered: 0 };
const total = (groups: OpenGroup[]) => groups.reduce((s, g) => s + g.n, 0);

describe('summarisePermissions', () => {
  it('always has all six classes, even with no rows', () => {
    const s = summarisePermissions([], new Set());
    expect(Object.keys(s.classes).sort()).toEqual([...PERMISSION_CLASSES].sort());
    for (const c of PERMISSION_CLASSES) expect(s.classes[c]).toEqual(zero);
    expect(s).toMatchObject({ unclassified: 0, needs_you: 0, with_desk: 0 });
  });

  it.each([
    [
      'granted, not out → doing',
      { cls: 'reach_out', out: false, n: 3 },
      'reach_out',
      { doing: 3, asking: 0, covered: 0 },
    ],
    [
      'granted, out with somebody → covered',
      { cls: 'chase', out: true, n: 2 },
      'chase',
      { doing: 0, asking: 0, covered: 2 },
    ],
    ['not granted, not out → asking', { cls: 'file', out: false, n: 4 }, 'file', { doing: 0, asking: 4, covered: 0 }],
    ['not granted, out → covered', { cls: 'commit', out: true, n: 1 }, 'commit', { doing: 0, asking: 0, covered: 1 }],
    [
      'money asks even when "granted"',
      { cls: 'money', out: false, n: 5 },
      'money',
      { doing: 0, asking: 5, covered: 0 },
    ],
    ['sign asks even when "granted"', { cls: 'sign', out: false, n: 1 }, 'sign', { doing: 0, asking: 1, covered: 0 }],
    [
      'money out with somebody → covered',
      { cls: 'money', out: true, n: 2 },
      'money',
      { doing: 0, asking: 0, covered: 2 },
    ],
  ] as const)('%s', (_name, group, cls, expected) => {
    const s = summarisePermissions([group], new Set([...GRANTED, 'money', 'sign']));
    expect(s.classes[cls]).toEqual(expected);
    for (const other of PERMISSION_CLASSES.filter((c) => c !== cls)) expect(s.classes[other]).toEqual(zero);
  });

  it('unclassified rows always ask, out or not, and count in needs_you', () => {
    const s = summarisePermissions(
      [
        { cls: null, out: false, n: 2 },
        { cls: null, out: true, n: 3 },
      ],
      new Set(PERMISSION_CLASSES),
    );
    expect(s.unclassified).toBe(5);
    expect(s.needs_you).toBe(5);
    expect(s.with_desk).toBe(0);
  });

  it('a class outside the six is counted as unclassified', () => {
    expect(summarisePermissions([{ cls: 'teleport', out: false, n: 1 }], new Set(['teleport'])).unclassified).toBe(1);
  });

  it('needs_you sums asking and unclassified, with_desk sums doing, and with covered they make the queue', () => {
    const groups: OpenGroup[] = [
      { cls: 'reach_out', out: false, n: 3 },
      { cls: 'reach_out', out: true, n: 1 },
      { cls: 'chase', out: false, n: 2 },
      { cls: 'file', out: false, n: 4 },
      { cls: 'file', out: true, n: 2 },
      { cls: 'commit', out: false, n: 1 },
      { cls: 'money', out: false, n: 6 },
      { cls: 'sign', out: true, n: 1 },
      { cls: null, out: false, n: 2 },
      { cls: null, out: true, n: 1 },
    ];
    const s = summarisePermissions(groups, GRANTED);
    expect(s.with_desk).toBe(3 + 2);
    expect(s.needs_you).toBe(4 + 1 + 6 + 3);
    const covered = Object.values(s.classes).reduce((t, c) => t + c.covered, 0);
    expect(covered).toBe(1 + 2 + 1);
    expect(s.needs_you + s.with_desk + covered).toBe(total(groups));
  });
});
