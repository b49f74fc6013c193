import { setTimeout as sleep } from 'node:timers/promises';
import type { DeskContext } from '../../domain/context.ts';
import {
  claimKey,
  dropStale,
  readKey,
  releaseKey,
  type StoredAnswer,
  storeAnswer,
} from '../../store/repositories/idempotency.ts';

// One key, one piece of work: the claim behind the API's Idempotency-Key and the screen's
// form keys. A call either holds the key (and later stores or releases its answer), finds the
// answer a finished call stored, or gives up after the lease, when it goes ahead unguarded.

const KEEP_MS = 24 * 60 * 60 * 1000;
const POLL_MS = 50;

export type Claim = { owned: true } | { owned: false; stored: StoredAnswer | null };

/** How long a claim may be held: longer than the longest a write may take. */
function leaseMs(ctx: DeskContext): number {
  return Math.max(ctx.config.runTimeoutMs, ctx.config.chatTimeoutMs, ctx.config.mailTimeoutMs) + 60_000;
}

export async function claimOrWait(ctx: DeskContext, key: string): Promise<Claim> {
  const db = ctx.store.db;
  const deskId = ctx.desk.id;
  const lease = leaseMs(ctx);
  const giveUpAt = Date.now() + lease;
  for (;;) {
    const now = ctx.clock.now();
    const claim = () => claimOn(db, ctx, key);
    if (await claim()) return { owned: true };
    // The key is held: by a record that expired, or a claim older than the lease (its process
    // died), both dropped here and the key claimed afresh; otherwise by a live call.
    await dropStale(db, deskId, key, now.toISOString(), new Date(now.getTime() - lease).toISOString());
    if (await claim()) return { owned: true };
    const stored = await readKey(db, deskId, key);
    if (stored?.state === 'done' && stored.body !== null) return { owned: false, stored };
    if (Date.now() > giveUpAt) return { owned: false, stored: null };
    await sleep(POLL_MS);
  }
}

/**
 * Takes the key with the answer given under it, in the caller's transaction, once its work is
 * done: the claim, the work and the answer commit together, and a second call with the key
 * waits at this claim until the first commits or rolls back. False when the key is held, by a
 * live call or a stale record alike: the caller then undoes its work.
 */
export function claimAnswered(ctx: DeskContext, key: string, status: number, body: string): Promise<boolean> {
  return claimOn(ctx.db, ctx, key, { status, body });
}

function claimOn(
  db: DeskContext['db'],
  ctx: DeskContext,
  key: string,
  answer?: { status: number; body: string },
): Promise<boolean> {
  const now = ctx.clock.now();
  return claimKey(db, ctx.desk.id, key, now.toISOString(), new Date(now.getTime() + KEEP_MS).toISOString(), answer);
}

/** Stores the answer for replays; in the caller's transaction when `ctx` is in one. */
export async function keepAnswer(ctx: DeskContext, key: string, status: number, body: string): Promise<void> {
  await storeAnswer(ctx.db, ctx.desk.id, key, status, body);
}

/** Frees the key for another try; in the caller's transaction when `ctx` is in one. */
export async function letGo(ctx: DeskContext, key: string): Promise<void> {
  await releaseKey(ctx.db, ctx.desk.id, key);
}
