import type { FastifyRequest } from 'fastify';
import type { DeskContext } from '../domain/context.ts';
import { DeskError, type ErrorCode } from '../domain/errors.ts';
import { claimOrWait, keepAnswer, letGo } from '../app/idempotency/claim.ts';
import { fieldOf } from './reply.ts';

// A screen form carries an idempotency key made when the page was drawn, so a double click or
// a resubmitted page does its work once: the second submit waits for the first and gets the
// same result. The keys live in the same store as the API's Idempotency-Key, under their own
// prefix so that a program's key never replays a form's answer: the prefix ends in a line
// break, which no HTTP header can carry, so no Idempotency-Key can be spelled like it.

const PREFIX = 'screen\n';

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

/**
 * The form's key, bound to what the form acts on: its address, and the `id` its body names where
 * the address does not. A key sent to another form (a page's key copied, or a crafted post) is
 * then a key of its own there, and never replays the answer of the form it was made for.
 */
function keyOf(request: FastifyRequest): string | null {
  const raw = fieldOf(request.body, 'idempotency_key').trim();
  if (raw === '') return null;
  const path = request.url.split('?')[0]!.slice(0, 200);
  const id = fieldOf(request.body, 'id').slice(0, 40);
  return `${PREFIX}${path}${id ? `#${id}` : ''}\n${raw.slice(0, 150)}`;
}

/** Runs `fn` once per form and key; a refusal (a DeskError) is an answer too, and is replayed. */
export async function once<T>(ctx: DeskContext, request: FastifyRequest, fn: () => Promise<T>): Promise<Outcome<T>> {
  const key = keyOf(request);
  if (key === null) return attempt(fn);
  const claim = await claimOrWait(ctx, key);
  if (!claim.owned && claim.stored?.body) return revive<T>(claim.stored.body);
  let outcome: Outcome<T>;
  try {
    outcome = await attempt(fn);
  } catch (err) {
    if (claim.owned) await letGo(ctx, key);
    throw err;
  }
  if (claim.owned) {
    const body: Stored = outcome.ok
      ? { value: outcome.value }
      : {
          error: {
            code: outcome.error.code,
            message: outcome.error.message,
            ...(outcome.error.details ? { details: outcome.error.details } : {}),
          },
        };
    try {
      await keepAnswer(ctx, key, outcome.ok ? 200 : 400, JSON.stringify(body));
    } catch {
      // The work is done and kept, so the page says so; the key is let go rather than held for
      // its lease, and a resubmit then finds what the work left.
      await letGo(ctx, key).catch(() => undefined);
    }
  }
  return outcome;
}
