import { describe, expect, it } from 'vitest';
import { newMessageId } from './message-id.ts';

describe('newMessageId', () => {
  it('is under the sending domain, with a random part that differs every time', () => {
    const a = newMessageId('Corner Bakery <desk@corner-bakery.example>', 'corner');
    const b = newMessageId('desk@corner-bakery.example', 'corner');
    expect(a).toMatch(/^<[A-Za-z0-9_-]{22}\.desk@corner-bakery\.example>$/);
    expect(b).toMatch(/@corner-bakery\.example>$/);
    expect(a).not.toBe(b);
  });

  it('falls back to the desk slug when the mailbox has no usable address', () => {
    expect(newMessageId(null, 'demo-bakery')).toMatch(/@demo-bakery\.desk\.invalid>$/);
    expect(newMessageId('not an address', 'x')).toMatch(/@x\.desk\.invalid>$/);
    expect(newMessageId('a@bad domain!', 'x')).toMatch(/@x\.desk\.invalid>$/);
  });
});
