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

type Store = DeskContext['store'];

/**
 * The keys this process holds, by store, until it stores or releases their answers: a stopping
 * server lets go of those it is cutting off, so a retry after the restart goes ahead at once
 * rather than waiting out the lease for a call that can no longer answer.
 */
const held = new WeakMap<Store, Map<string, { deskId: string; key: string }>>();

function heldOn(store: Store) {
  const keys = held.get(store) ?? new Map<string, { deskId: string; key: string }>();
  held.set(store, keys);
  return keys;
}

const idOf = (deskId: string, key: string) => `${deskId}\u0000${key}`;

/** How long a claim may be held: longer than the longest a write may take. */
function leaseMs(ctx: DeskContext): number {
  return Math.max(ctx.config.runTimeoutMs, ctx.config.chatTimeoutMs, ctx.config.mailTimeoutMs) + 60_000;
}

export async function claimOrWait(ctx: DeskContext, key: string): Promise<Claim> {
  const db = ctx.store.db;
  const deskId = ctx.desk.id;
  const lease = leaseMs(ctx);
  // The lease is counted for each claim waited on, from when it was first seen: when the one
  // before died and another call took the key over, that call is waited for afresh, not given
  // up on with the claim that died (each call that waited would then do the work itself).
  let waitedOn: string | null = null;
  let seenAt = 0;
  for (;;) {
    const now = ctx.clock.now();
    const claim = () => claimOn(db, ctx, key);
    if (await claim()) return holding(ctx, key);
    // The key is held: by a record that expired, or a claim older than the lease (its process
    // died), both dropped here and the key claimed afresh; otherwise by a live call.
    await dropStale(db, deskId, key, now.toISOString(), new Date(now.getTime() - lease).toISOString());
    if (await claim()) return holding(ctx, key);
    const stored = await readKey(db, deskId, key);
    if (stored?.state === 'done' && stored.body !== null) return { owned: false, stored };
    // Measured at the instant the stale claims were dropped: a claim seen for longer than the
    // lease was then older than it too, so what is left is a live call, given up on only when
    // it has held the key past the lease. Let go meanwhile (nothing stored): the next turn claims it.
    const at = now.getTime();
    if (stored && stored.created_at !== waitedOn) {
      waitedOn = stored.created_at;
      seenAt = at;
    } else if (stored && at - seenAt > lease) return { owned: false, stored: null };
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

function holding(ctx: DeskContext, key: string): Claim {
  heldOn(ctx.store).set(idOf(ctx.desk.id, key), { deskId: ctx.desk.id, key });
  return { owned: true };
}

/** Stores the answer for replays; in the caller's transaction when `ctx` is in one. */
export async function keepAnswer(ctx: DeskContext, key: string, status: number, body: string): Promise<void> {
  await storeAnswer(ctx.db, ctx.desk.id, key, status, body);
  heldOn(ctx.store).delete(idOf(ctx.desk.id, key));
}

/** Frees the key for another try; in the caller's transaction when `ctx` is in one. */
export async function letGo(ctx: DeskContext, key: string): Promise<void> {
  await releaseKey(ctx.db, ctx.desk.id, key);
  heldOn(ctx.store).delete(idOf(ctx.desk.id, key));
}

/**
 * Frees every key this process still holds on `store`, for calls a stopping server cut off
 * unanswered: none of them stored an answer, so a retry with the key does the work afresh.
 * A key whose answer was stored meanwhile is left as it is (only pending claims are freed).
 */
export async function letGoHeld(store: Store): Promise<number> {
  const keys = [...heldOn(store).values()];
  held.delete(store);
  for (const { deskId, key } of keys) await releaseKey(store.db, deskId, key);
  return keys.length;
}
