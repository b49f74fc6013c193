import { describe, expect, it } from 'vitest';
import { SendHold } from './send-hold.ts';

const T0 = new Date(Date.UTC(2030, 0, 1, 9, 0, 0));
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;

describe('SendHold', () => {
  it('holds nothing until a miss', () => {
    expect(new SendHold().until('d', T0)).toBeNull();
  });

  it('holds a minute after the first miss, doubling after each, at most an hour', () => {
    const hold = new SendHold();
    let now = T0;
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      const until = hold.missed('d', now);
      waits.push((until.getTime() - now.getTime()) / MIN);
      expect(hold.until('d', now)).toEqual(until);
      expect(hold.until('d', at(until.getTime() - T0.getTime() - 1))).toEqual(until);
      now = until;
      expect(hold.until('d', now)).toBeNull();
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it('is over at the first send that reaches the server, and starts at a minute again', () => {
    const hold = new SendHold();
    hold.missed('d', T0);
    hold.missed('d', T0);
    hold.clear('d');
    expect(hold.until('d', T0)).toBeNull();
    expect(hold.missed('d', T0)).toEqual(at(MIN));
  });

  it('holds each desk on its own', () => {
    const hold = new SendHold();
    hold.missed('a', T0);
    expect(hold.until('b', T0)).toBeNull();
  });
});
