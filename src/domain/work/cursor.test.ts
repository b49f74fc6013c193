import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_DATE_KEY } from '../../store/repositories/open-counts.ts';
import { cursorScope, decodeCursor, encodeCursor, type QueuePosition } from './cursor.ts';

// D19: a cursor reads back only under the secret, desk and filters it was made with, and
// only when untouched. Everything else is null, which restarts the list.

const secret = randomBytes(32);
const scope = cursorScope('dsk_a', ['open', null, null]);
const pos: QueuePosition = { today: '2026-11-22', segment: 0, priority: 80, dueKey: '2026-11-01', id: 4711 };

describe('cursors', () => {
  it('round-trips a position', () => {
    const c = encodeCursor(secret, scope, pos);
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(secret, scope, c)).toEqual(pos);
    for (const dueKey of ['9999-12-31', NO_DATE_KEY]) {
      const later = { ...pos, segment: 1 as const, dueKey };
      expect(decodeCursor(secret, scope, encodeCursor(secret, scope, later))).toEqual(later);
    }
  });

  it('does not read under another secret, desk or set of filters', () => {
    const c = encodeCursor(secret, scope, pos);
    expect(decodeCursor(randomBytes(32), scope, c)).toBeNull();
    expect(decodeCursor(secret, cursorScope('dsk_b', ['open', null, null]), c)).toBeNull();
    expect(decodeCursor(secret, cursorScope('dsk_a', [null, null, null]), c)).toBeNull();
    expect(decodeCursor(secret, cursorScope('dsk_a', ['open', 'filing', null]), c)).toBeNull();
  });

  it('does not read when edited, truncated, extended or made up', () => {
    const c = encodeCursor(secret, scope, pos);
    const [body, sig] = c.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify([2, '2026-11-22', 0, 80, '2026-11-01', 1])).toString('base64url');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const bad of [
      `${forged}.${sig}`,
      `${flip(body, 3)}.${sig}`,
      `${body}.${flip(sig, 2)}`,
      c.slice(0, -1),
      c.slice(0, 10),
      `${c}A`,
      `${c}.${sig}`,
      body,
      '',
      'garbage',
      '..',
      'not a cursor at all!',
      'x'.repeat(5000),
      '%00%ff',
    ]) {
      expect(decodeCursor(secret, scope, bad), bad.slice(0, 40)).toBeNull();
    }
  });

  it('does not read with any other last character, though base64url leaves some of its bits unread', () => {
    const c = encodeCursor(secret, scope, pos);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const others = [...alphabet].filter((ch) => ch !== c.at(-1));
    expect(others).toHaveLength(63);
    for (const ch of others) expect(decodeCursor(secret, scope, c.slice(0, -1) + ch), ch).toBeNull();
  });

  it('does not read a value that is not a string', () => {
    for (const v of [undefined, null, 5, ['a'], { a: 1 }]) expect(decodeCursor(secret, scope, v)).toBeNull();
  });
});
