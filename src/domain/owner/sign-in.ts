import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findDesk } from '../../store/repositories/desks.ts';
import {
  deleteDeskSessions,
  cancelUnusedDeskLinks,
  deleteSession,
  findLink,
  findSession,
  insertLink,
  insertSession,
  touchSession,
  useLink,
} from '../../store/repositories/owner.ts';
import type { Database, DeskRow } from '../../store/schema.ts';
import { atomicallyOn } from '../../store/tx.ts';
import { storeTrouble } from '../../store/trouble.ts';
import { LINK_MINUTES } from './link-url.ts';
import { DAY_MS } from '../dates.ts';

// The owner's sign-in to the screen: `desk owner link` makes a one-time link, opening it
// starts a session, `desk owner signout` ends them all. Tokens are random and shown once;
// only their hashes are stored. Every instant comes from the caller's clock.

export const SESSION_IDLE_DAYS = 30;

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new one-time sign-in token for the desk, valid for LINK_MINUTES. */
export async function createSignInLink(
  db: Kysely<Database>,
  deskId: string,
  now: Date,
): Promise<{ token: string; expiresAt: string }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + LINK_MINUTES * 60_000).toISOString();
  await insertLink(db, { hash: hashToken(token), deskId, now: now.toISOString(), expiresAt });
  return { token, expiresAt };
}

/** Why a link starts nothing: unknown, used, past its 15 minutes, or ended by `desk owner signout`. */
export type LinkFault = 'unknown' | 'used' | 'expired' | 'cancelled';

export type SignIn = { ok: true; session: string; desk: DeskRow } | { ok: false; reason: LinkFault };

/** Trades a link's token for a session token, once; a used, expired or unknown link starts nothing. */
export type LinkLook = { ok: true; desk: DeskRow } | { ok: false; reason: LinkFault };

/** The desk a link would sign in to, without using it up. */
export async function lookAtSignInLink(db: Kysely<Database>, token: string, now: Date): Promise<LinkLook> {
  const link = await findLink(db, hashToken(token));
  if (!link) return { ok: false, reason: 'unknown' };
  if (link.used_at !== null) return { ok: false, reason: 'used' };
  if (link.expires_at <= now.toISOString()) {
    const lasts = Date.parse(link.created_at) + LINK_MINUTES * 60_000;
    return { ok: false, reason: Date.parse(link.expires_at) < lasts ? 'cancelled' : 'expired' };
  }
  const desk = await findDesk(db, link.desk_id);
  return desk ? { ok: true, desk } : { ok: false, reason: 'unknown' };
}

export async function redeemSignInLink(db: Kysely<Database>, token: string, now: Date): Promise<SignIn> {
  const look = await lookAtSignInLink(db, token, now);
  if (!look.ok) return look;
  const at = now.toISOString();
  const hash = hashToken(token);
  // Two tabs opening one link: only the first uses it.
  if (!(await useLink(db, hash, at))) return { ok: false, reason: 'used' };
  const desk = look.desk;
  const session = newToken();
  await insertSession(db, { hash: hashToken(session), deskId: desk.id, now: at });
  return { ok: true, session, desk };
}

/** How stale a session's last use may be before a page view writes it again. */
const TOUCH_EVERY_MS = 60_000;

/** Lets a session's bookkeeping wait when the store cannot write now (P-ops-8); any other fault is thrown. */
function unlessStoreTrouble(err: unknown): void {
  if (!storeTrouble(err)) throw err;
}

/** The desk a session token is signed in to, or null; each use restarts the idle period. */
export async function deskForSession(db: Kysely<Database>, token: string, now: Date): Promise<DeskRow | null> {
  const hash = hashToken(token);
  const s = await findSession(db, hash);
  if (!s) return null;
  if (new Date(s.last_seen_at).getTime() + SESSION_IDLE_DAYS * DAY_MS <= now.getTime()) {
    // Signed out either way: a store that cannot take the delete now leaves it for a later page.
    await deleteSession(db, hash).catch(unlessStoreTrouble);
    return null;
  }
  const desk = await findDesk(db, s.desk_id);
  if (!desk) return null;
  // Written at most once a minute: the idle period is days, and a page view need not be a write.
  // A store that cannot take the write now (another process's, a full disk) leaves it for the
  // next page: the page itself is still served.
  if (now.getTime() - new Date(s.last_seen_at).getTime() >= TOUCH_EVERY_MS)
    await touchSession(db, hash, now.toISOString()).catch(unlessStoreTrouble);
  return desk;
}

export async function endSession(db: Kysely<Database>, token: string): Promise<void> {
  await deleteSession(db, hashToken(token));
}

/**
 * Ends every session of the desk, and every sign-in link not used yet: an owner signs every
 * browser out because a session or a link may have got out, and a link would start a session
 * again for up to 15 minutes. How many of each there were.
 */
export async function signOutDesk(
  db: Kysely<Database>,
  deskId: string,
  now: Date,
): Promise<{ sessions: number; links: number }> {
  return atomicallyOn(db, async (tx) => ({
    sessions: await deleteDeskSessions(tx, deskId),
    links: await cancelUnusedDeskLinks(tx, deskId, now.toISOString()),
  }));
}
