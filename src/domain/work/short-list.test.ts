import { describe, expect, it } from 'vitest';
import type { WorkRow } from '../../store/schema.ts';
import { NO_DATE_KEY } from '../../store/repositories/open-counts.ts';
import { queueOrderOn } from '../../store/repositories/queue.ts';
import { ShortList } from './short-list.ts';
import { addDays } from '../dates.ts';

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
}

// Due keys are compared with each other and with a day given here, never with the clock: any dates serve.
const DAY = '2026-02-11';
const order = queueOrderOn(DAY);
const rowOf = (id: number, priority: number, due_key: string) => ({ id, priority, due_key }) as WorkRow;

describe('the short list of a work pass', () => {
  it('keeps the best rows in queue order, one for each address, whatever order they come in', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = random(seed);
      const most = 1 + r(12);
      const offered = Array.from({ length: 10 + r(120) }, (_, i) => ({
        row: rowOf(i + 1, r(4), r(5) === 0 ? NO_DATE_KEY : `2026-0${1 + r(3)}-1${r(3)}`),
        as: 'run' as const,
        to: r(3) === 0 ? undefined : `a${r(15)}@example.test`,
      }));
      const list = new ShortList(most, order);
      for (const c of offered) {
        if (!list.mightTake(c.row)) continue;
        const held = c.to ? list.heldFor(c.to) : undefined;
        if (held && order(c.row, held.row) >= 0) continue;
        list.add(c);
      }
      // The rule written the plain way: all in queue order, the first for each address, the first `most`.
      const seen = new Set<string>();
      const expected = [...offered]
        .sort((a, b) => order(a.row, b.row))
        .filter((c) => !c.to || (!seen.has(c.to) && seen.add(c.to)))
        .slice(0, most);
      expect(
        list.items.map((c) => c.row.id),
        `seed ${seed}`,
      ).toEqual(expected.map((c) => c.row.id));
    }
  });

  it('takes a row once, and none behind a full list', () => {
    const list = new ShortList(2, order);
    const a = { row: rowOf(1, 5, '2026-01-01'), as: 'run' as const, to: undefined };
    list.add(a);
    expect(list.mightTake(a.row)).toBe(false);
    list.add({ row: rowOf(2, 4, '2026-01-01'), as: 'run', to: undefined });
    expect(list.mightTake(rowOf(3, 3, '2026-01-01'))).toBe(false);
    expect(list.mightTake(rowOf(4, 9, '2026-01-01'))).toBe(true);
  });

  it('puts an overdue row ahead of a higher priority one not yet due, as GET /work does', () => {
    const list = new ShortList(1, order);
    list.add({ row: rowOf(2, 60, addDays(DAY, 3)), as: 'run', to: undefined });
    const overdue = rowOf(1, 20, addDays(DAY, -5));
    expect(list.mightTake(overdue)).toBe(true);
    list.add({ row: overdue, as: 'run', to: undefined });
    expect(list.items.map((c) => c.row.id)).toEqual([1]);
    // Due today is not overdue: priority decides again.
    expect(order(rowOf(3, 20, DAY), rowOf(4, 60, addDays(DAY, 3)))).toBeGreaterThan(0);
  });
});
