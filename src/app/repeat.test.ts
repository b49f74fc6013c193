import { afterEach, describe, expect, it, vi } from 'vitest';
import { AGAIN_MS, repeat } from './repeat.ts';

describe('repeat', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a step at once, the next one interval after it ends, and sooner when it asks to go again', async () => {
    vi.useFakeTimers();
    const interval = 60_000;
    const asks: Array<'again' | undefined> = ['again', undefined, undefined];
    let runs = 0;
    const stop = repeat(interval, async () => asks[runs++]);
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(AGAIN_MS);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(interval - 1);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(3);
    await stop();
    await vi.advanceTimersByTimeAsync(interval * 2);
    expect(runs).toBe(3);
  });

  it('keeps going after a step that fails', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const stop = repeat(1_000, async () => {
      runs++;
      throw new Error('a step that fails');
    });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toBe(3);
    await stop();
  });

  it('tells a step in flight that the loop is stopping, and waits for it', async () => {
    let seen: AbortSignal | null = null;
    let finish!: () => void;
    const stop = repeat(1_000, async (stopping) => {
      seen = stopping;
      await new Promise<void>((r) => (finish = r));
    });
    expect(seen).not.toBeNull();
    expect(seen!.aborted).toBe(false);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    expect(seen!.aborted).toBe(true);
    await Promise.resolve();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });
});
