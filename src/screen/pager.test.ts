import { describe, expect, it } from 'vitest';
import { nextTrail, previousPage, readTrail, writeTrail } from './pager.ts';

// Cursors here are stand-ins of the right characters: the trail never reads them, only keeps them.
const c = (n: number) => `pos${n}.sig${n}`;

describe('the way back through the queue', () => {
  it('walks forward and back again to the first page', () => {
    let cursor: string | undefined;
    let trail = readTrail(undefined);
    const seen: (string | undefined)[] = [];
    for (let n = 1; n <= 4; n++) {
      seen.push(cursor);
      trail = readTrail(writeTrail(nextTrail(cursor, trail)));
      cursor = c(n);
    }
    const back: (string | undefined)[] = [];
    for (let step = previousPage(trail); step; step = step.cursor ? previousPage(step.trail) : null)
      back.push(step.cursor);
    expect(back).toEqual([c(3), c(2), c(1), undefined]);
    expect(back).toEqual([...seen].reverse());
  });

  it('knows no previous page for an address that came without its trail', () => {
    expect(previousPage(readTrail(undefined))).toBeNull();
    const next = nextTrail(c(7), readTrail(undefined));
    expect(previousPage(readTrail(writeTrail(next)))).toEqual({ cursor: c(7), trail: ['~'] });
    expect(previousPage(['~'])).toBeNull();
  });

  it('keeps only the last twelve pages, and marks the rest as gone', () => {
    let trail = readTrail('');
    for (let n = 1; n <= 30; n++) trail = readTrail(writeTrail(nextTrail(c(n), trail)));
    expect(trail).toHaveLength(12);
    expect(trail![0]).toBe('~');
    expect(trail!.at(-1)).toBe(c(30));
    let steps = 0;
    for (let step = previousPage(trail); step; step = previousPage(step.trail)) steps++;
    expect(steps).toBe(11);
  });

  it('reads a trail it did not write as unknown', () => {
    for (const raw of ['a b~', '<script>', 'x'.repeat(401), Array(13).fill('a.b').join(' '), ['x'], 5])
      expect(readTrail(raw)).toBeNull();
    expect(readTrail('~ a.b')).toEqual(['~', 'a.b']);
    expect(readTrail('a.b ~')).toBeNull();
  });
});
