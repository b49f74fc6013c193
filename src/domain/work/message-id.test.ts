import { describe, expect, it } from 'vitest';
import { isDeskMessageId, newMessageId, storedFormOf } from './message-id.ts';

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

  it('is known again by its form, and no other id is taken for one', () => {
    expect(isDeskMessageId(newMessageId('desk@corner-bakery.example', 'corner'))).toBe(true);
    expect(isDeskMessageId(newMessageId(null, 'demo-bakery'))).toBe(true);
    expect(isDeskMessageId('<CAKx8yz@mail.gmail.com>')).toBe(false);
    expect(isDeskMessageId('<short.desk@bakery.test>')).toBe(false);
  });

  it("is read back with its domain in lower case, as it was written, and another's id as it came", () => {
    const id = newMessageId('desk@bakery.test', 'corner');
    expect(storedFormOf(id.replace('@bakery.test>', '@BAKERY.Test>'))).toBe(id);
    expect(storedFormOf(id)).toBe(id);
    expect(storedFormOf('<CAKx8yz@Mail.Gmail.com>')).toBe('<CAKx8yz@Mail.Gmail.com>');
  });
});
