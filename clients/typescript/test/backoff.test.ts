import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_TIMEOUTS, retryAfterMs } from '../src/transport.ts';
import { loadConfig } from '../../../src/config.ts';

// How long the client waits between attempts, as a table.

describe('waits between attempts', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');

  it.each([
    ['60', 60_000],
    ['0', 0],
    ['1.5', 1_500],
    ['Sun, 22 Nov 2026 10:00:30 GMT', 30_000],
    ['Sun, 22 Nov 2026 09:59:00 GMT', 0],
    ['soon', null],
    ['', null],
  ])('Retry-After %j is %j ms', (value, expected) => {
    expect(retryAfterMs(value, now)).toBe(expected);
  });

  it('a missing Retry-After leaves the wait to the back-off', () => {
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it.each([
    [0, 250, 500],
    [1, 500, 1_000],
    [2, 1_000, 2_000],
    [10, 10_000, 20_000],
  ])('retry %i waits between %i and %i ms with a 500 ms base and a 20 s cap', (retry, low, high) => {
    expect(backoffMs(retry, 500, 20_000, () => 0)).toBe(low);
    expect(backoffMs(retry, 500, 20_000, () => 1)).toBe(high);
  });
});

describe('time-outs', () => {
  it("wait longer than the desk's own limits on a run and a chat, so the desk's answer arrives first", () => {
    const desk = loadConfig({});
    expect(DEFAULT_TIMEOUTS.run).toBeGreaterThan(desk.runTimeoutMs);
    expect(DEFAULT_TIMEOUTS.chat).toBeGreaterThan(desk.chatTimeoutMs);
  });
});
