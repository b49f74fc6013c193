import { setTimeout as sleep } from 'node:timers/promises';
import type { DeskContext } from '../domain/context.ts';
import { DeskError, type ErrorCode } from '../domain/errors.ts';
import { claimKey, dropStale, readKey, releaseKey, storeAnswer } from '../store/repositories/idempotency.ts';

// A screen form carries an idempotency key made when the page was drawn, so a double click or
// a resubmitted page does its work once: the second submit waits for the first and gets the
// same result. The keys live in the same store as the API's Idempotency-Key, under their own
// prefix so that a program's key never replays a form's answer.

const KEEP_MS = 24 * 60 * 60 * 1000;
const POLL_MS = 50;
const PREFIX = 'screen:';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: DeskError };

interface Stored {
  value?: unknown;
  error?: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

async function attempt<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    if (err instanceof DeskError && err.code !== 'internal_error') return { ok: false, error: err };
    throw err;
  }
}

function revive<T>(body: string): Outcome<T> {
  const s = JSON.parse(body) as Stored;
  if (s.error) return { ok: false, error: new DeskError(s.error.code, s.error.message, s.error.details) };
  return { ok: true, value: s.value as T };
}

/** Runs `fn` once per key; a refusal (a DeskError) is an answer too, and is replayed. */
export async function once<T>(ctx: DeskContext, rawKey: unknown, fn: () => Promise<T>): Promise<Outcome<T>> {
  if (typeof rawKey !== 'string' || rawKey.trim() === '') return attempt(fn);
  const key = `${PREFIX}${rawKey.trim().slice(0, 150)}`;
  const db = ctx.store.db;
  const deskId = ctx.desk.id;
  const lease = Math.max(ctx.config.runTimeoutMs, ctx.config.chatTimeoutMs, ctx.config.mailTimeoutMs) + 60_000;
  const giveUpAt = Date.now() + lease;
  let owned = false;
  for (;;) {
    const now = ctx.clock.now();
    await dropStale(db, deskId, key, now.toISOString(), new Date(now.getTime() - lease).toISOString());
    if (await claimKey(db, deskId, key, now.toISOString(), new Date(now.getTime() + KEEP_MS).toISOString())) {
      owned = true;
      break;
    }
    const stored = await readKey(db, deskId, key);
    if (stored?.state === 'done' && stored.body !== null) return revive<T>(stored.body);
    if (Date.now() > giveUpAt) break;
    await sleep(POLL_MS);
  }
  let outcome: Outcome<T>;
  try {
    outcome = await attempt(fn);
  } catch (err) {
    if (owned) await releaseKey(db, deskId, key);
    throw err;
  }
  if (owned) {
    const body: Stored = outcome.ok
      ? { value: outcome.value }
      : {
          error: {
            code: outcome.error.code,
            message: outcome.error.message,
            ...(outcome.error.details ? { details: outcome.error.details } : {}),
          },
        };
    await storeAnswer(db, deskId, key, outcome.ok ? 200 : 400, JSON.stringify(body));
  }
  return outcome;
}
