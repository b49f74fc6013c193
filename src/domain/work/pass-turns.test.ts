import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestStore } from '../../../test/helpers/db.ts';
import { makeDesk, makeWorkMany } from '../../../test/helpers/factories.ts';
import type { PassSource } from '../../store/repositories/pass.ts';
import { PassTurns, rowsInTurn } from './pass-turns.ts';

// No clock is involved: the source is given its horizon, so these dates are plain keys, true on
// any day.
const HORIZON = '2026-06-30';
const SOURCE: PassSource = { kind: 'due', cls: 'file', horizon: HORIZON };

describe.each(DIALECTS)('a pass reads at most so many rows in reach, going on next time ($name)', ({ open }) => {
  let store: TestStore;
  let small: { deskId: string; order: number[] };
  let large: { deskId: string; order: number[] };

  /** A desk with `n` rows in reach, several on each date, and its ids in the source's order. */
  async function deskOf(n: number) {
    const deskId = (await makeDesk(store.db)).desk.id;
    await makeWorkMany(
      store.db,
      deskId,
      Array.from({ length: n }, (_, i) => ({
        title: `Row ${i}`,
        class: 'file',
        due_date: `2026-0${1 + ((i * 7) % 5)}-1${i % 3}`,
      })),
    );
    // One row out of reach, which no pass reads.
    await makeWorkMany(store.db, deskId, [{ title: 'Later', class: 'file', due_date: '2026-09-01' }]);
    const rows = await store.db
      .selectFrom('work')
      .select(['id', 'due_key'])
      .where('desk_id', '=', deskId)
      .where('due_key', '<=', HORIZON)
      .execute();
    rows.sort((a, b) => (a.due_key < b.due_key ? -1 : a.due_key > b.due_key ? 1 : a.id - b.id));
    return { deskId, order: rows.map((r) => r.id) };
  }

  beforeAll(async () => {
    store = await open();
    small = await deskOf(23);
    large = await deskOf(450);
  });
  afterAll(async () => {
    await store?.close();
  });

  async function onePass(deskId: string, turns: PassTurns | undefined, most: number): Promise<number[]> {
    const seen: number[] = [];
    for await (const page of rowsInTurn(store.db, deskId, SOURCE, turns, most)) seen.push(...page.map((r) => r.id));
    return seen;
  }

  it('without a memory of the last pass, reads the first rows in the order of its index, every time', async () => {
    for (const most of [1, 5, 23]) {
      expect(await onePass(small.deskId, undefined, most)).toEqual(small.order.slice(0, most));
      expect(await onePass(small.deskId, undefined, most)).toEqual(small.order.slice(0, most));
    }
    expect(await onePass(large.deskId, undefined, 230)).toEqual(large.order.slice(0, 230));
  });

  it('with one, goes on from where the last pass stopped and comes round to the start', async () => {
    for (const [desk, most] of [
      [small, 5],
      [small, 7],
      [large, 230],
      [large, 199],
    ] as const) {
      const turns = new PassTurns();
      const passes = 2 * Math.ceil(desk.order.length / most) + 1;
      const read: number[] = [];
      for (let i = 0; i < passes; i++) {
        const one = await onePass(desk.deskId, turns, most);
        expect(one).toHaveLength(most);
        expect(new Set(one).size).toBe(most);
        read.push(...one);
      }
      const cycled = Array.from({ length: read.length }, (_, i) => desk.order[i % desk.order.length]);
      expect(read).toEqual(cycled);
    }
  });

  it('reads every row once a pass when there are no more than it may read, wherever the last one stopped', async () => {
    const turns = new PassTurns();
    await onePass(small.deskId, turns, 10);
    for (let i = 0; i < 3; i++) {
      const one = await onePass(small.deskId, turns, 30);
      expect([...one].sort((a, b) => a - b)).toEqual([...small.order].sort((a, b) => a - b));
    }
    // Having read them all, the next pass starts at the top.
    expect(await onePass(small.deskId, turns, 4)).toEqual(small.order.slice(0, 4));
  });

  it("keeps each desk's place apart", async () => {
    const turns = new PassTurns();
    expect(await onePass(small.deskId, turns, 4)).toEqual(small.order.slice(0, 4));
    expect(await onePass(large.deskId, turns, 4)).toEqual(large.order.slice(0, 4));
    expect(await onePass(small.deskId, turns, 4)).toEqual(small.order.slice(4, 8));
  });
});
