import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { settingOnce } from '../../store/repositories/desks.ts';
import { NO_DATE_KEY } from '../../store/repositories/open-counts.ts';
import type { Database } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { isIsoDate } from '../dates.ts';
import { MAX_ID } from '../input.ts';

// /work cursors (D19): an opaque, signed position in the queue's order. The signature covers
// the desk and the filters as well as the position, so a cursor from another desk, another
// server (another secret), another set of filters, or one that was edited, truncated or
// made up simply fails to read, and the list restarts from its first page.

/** Where a page ended: the last row given, and the day the overdue split was drawn on. */
export interface QueuePosition {
  /** The desk's today when the walk began; later pages keep it so the split does not move under them. */
  today: string;
  /** 0 while in the overdue part of the queue, 1 after it. */
  segment: 0 | 1;
  priority: number;
  dueKey: string;
  id: number;
}

// 2 since rows with no date sort after 9999-12-31 (migration 014): a cursor made before names
// its place by the old key, so it restarts the list rather than skip or repeat rows.
const VERSION = 2;
const SIG_BYTES = 16;
const MAX_CURSOR_CHARS = 400;
export const CURSOR_SECRET_SETTING = 'cursor_secret';

// One secret per database, read once per process: every server on the database signs alike.
const secrets = new WeakMap<Kysely<Database>, Promise<Buffer>>();

export function cursorSecret(db: Kysely<Database>): Promise<Buffer> {
  let s = secrets.get(db);
  if (!s) {
    s = settingOnce(db, CURSOR_SECRET_SETTING, randomBytes(32).toString('base64url')).then((v) =>
      Buffer.from(v, 'base64url'),
    );
    s.catch(() => secrets.delete(db));
    secrets.set(db, s);
  }
  return s;
}

function sign(secret: Buffer, scope: string, body: string): Buffer {
  return createHmac('sha256', secret).update(scope).update('\n').update(body).digest().subarray(0, SIG_BYTES);
}

/** What a cursor is bound to besides its position: the desk and the filters it was made under. */
export function cursorScope(deskId: string, filters: unknown): string {
  return `${deskId}\n${JSON.stringify(filters)}`;
}

export function encodeCursor(secret: Buffer, scope: string, pos: QueuePosition): string {
  const body = Buffer.from(
    JSON.stringify([VERSION, pos.today, pos.segment, pos.priority, pos.dueKey, pos.id]),
  ).toString('base64url');
  return `${body}.${sign(secret, scope, body).toString('base64url')}`;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) <= MAX_ID;

/** The position a cursor names, or null for anything that does not verify and read cleanly. */
export function decodeCursor(secret: Buffer, scope: string, raw: unknown): QueuePosition | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_CURSOR_CHARS) return null;
  const parts = raw.split('.');
  if (parts.length !== 2) return null;
  const [body, sig] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(sig)) return null;
  // Compared as written, not as decoded: base64url leaves the last character's low bits unread,
  // so a decoded comparison would take a signature with its last character edited.
  const given = Buffer.from(sig);
  const expected = Buffer.from(sign(secret, scope, body).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(v) || v.length !== 6) return null;
  const [version, today, segment, priority, dueKey, id] = v as unknown[];
  if (version !== VERSION || !isIsoDate(today) || (segment !== 0 && segment !== 1)) return null;
  if (
    !isInt(priority) ||
    !isInt(id) ||
    id < 1 ||
    typeof dueKey !== 'string' ||
    !(isIsoDate(dueKey) || dueKey === NO_DATE_KEY)
  )
    return null;
  return { today, segment, priority, dueKey, id };
}

/** The signing secret of the context's database (not its transaction: the setting outlives it). */
export function secretFor(ctx: DeskContext): Promise<Buffer> {
  return cursorSecret(ctx.store.db);
}
