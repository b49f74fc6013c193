import { describe, expect, it } from 'vitest';
import { askOncePerTurn, askOneAtATime } from './freshness.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('asking once for the requests that arrive together', () => {
  it('reads once for every call made before the check phase, and again for a call made after it', async () => {
    let reads = 0;
    const ask = askOncePerTurn(() => ++reads);
    const together = [ask(), ask(), ask()];
    expect(reads).toBe(0);
    expect(await Promise.all(together)).toEqual([1, 1, 1]);
    // A call made once that reading is done gets a reading of its own.
    expect(await ask()).toBe(2);
    await nextTurn();
    expect(await Promise.all([ask(), ask()])).toEqual([3, 3]);
  });

  it('gives every caller of a failed reading its failure, and reads afresh next time', async () => {
    let fail = true;
    const ask = askOncePerTurn(() => {
      if (fail) throw new Error('no answer');
      return 'ok';
    });
    const outcomes = await Promise.allSettled([ask(), ask()]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await ask()).toBe('ok');
  });

  it('sends one round trip at a time, and one more for every call made while it was under way', async () => {
    const sent: Array<(v: number) => void> = [];
    const ask = askOneAtATime(() => new Promise<number>((resolve) => sent.push(resolve)));
    const first = ask();
    expect(sent).toHaveLength(1);
    // Made after the first was sent: they may not share its answer, and wait for the next.
    const second = [ask(), ask(), ask()];
    expect(sent).toHaveLength(1);
    sent[0]!(1);
    expect(await first).toBe(1);
    await nextTurn();
    expect(sent).toHaveLength(2);
    // Made while the second is under way: a third, after it.
    const third = ask();
    sent[1]!(2);
    expect(await Promise.all(second)).toEqual([2, 2, 2]);
    await nextTurn();
    expect(sent).toHaveLength(3);
    sent[2]!(3);
    expect(await third).toBe(3);
    // Nothing under way: the next call sends at once.
    void ask();
    expect(sent).toHaveLength(4);
    sent[3]!(4);
  });

  it('goes on after a round trip that failed', async () => {
    let n = 0;
    const ask = askOneAtATime(async () => {
      n++;
      if (n === 1) throw new Error('connection lost');
      return n;
    });
    const first = ask();
    const second = ask();
    await expect(first).rejects.toThrow('connection lost');
    expect(await second).toBe(2);
  });
});
