import type { Deps } from '../../domain/context.ts';
import { PURGE_BATCH, purgeExpired } from '../../store/repositories/idempotency.ts';
import { letOthersIn } from '../../domain/turn.ts';

// Idempotency records are kept for a day (http/idempotency.ts); a repeat after that is a new
// intent. Expired ones are removed on the server's schedule so the table does not grow for
// ever. A stale record met by a write is also dropped there and then (dropStale).

/**
 * Removes every record that expired at or before the clock's now, a batch at a time with the
 * process's other work let in between batches; returns how many.
 */
export async function purgeIdempotency(deps: Deps): Promise<number> {
  const now = deps.clock.now().toISOString();
  let removed = 0;
  for (;;) {
    const n = await purgeExpired(deps.store.db, now);
    removed += n;
    if (n < PURGE_BATCH) return removed;
    await letOthersIn();
  }
}
