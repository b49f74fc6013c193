import type { Deps } from '../../domain/context.ts';
import { purgeExpired } from '../../store/repositories/idempotency.ts';

// Idempotency records are kept for a day (http/idempotency.ts); a repeat after that is a new
// intent. Expired ones are removed on the server's schedule so the table does not grow for
// ever. A stale record met by a write is also dropped there and then (dropStale).

/** Removes every record that expired at or before the clock's now; returns how many. */
export async function purgeIdempotency(deps: Deps): Promise<number> {
  return purgeExpired(deps.store.db, deps.clock.now().toISOString());
}
