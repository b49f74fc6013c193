import { describe, expect, it } from 'vitest';
import { afterStep, closedOn } from './step-done.ts';

describe('after a step is done', () => {
  it('waits while somebody owes a reply, and is done otherwise', () => {
    expect(afterStep({ waiting_on: 'the council' })).toBe('waiting');
    expect(afterStep({ waiting_on: null })).toBe('done');
    expect(afterStep({ waiting_on: '' })).toBe('done');
  });

  it('records when a row closed only when it is done', () => {
    const now = new Date(Date.UTC(2030, 0, 2, 3, 4, 5)).toISOString();
    expect(closedOn('done', now)).toEqual({ closed_at: now });
    expect(closedOn('waiting', now)).toEqual({});
    expect(closedOn('open', now)).toEqual({});
  });
});
