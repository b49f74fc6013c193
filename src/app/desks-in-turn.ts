import type { Deps } from '../domain/context.ts';
import { requireDesk } from '../domain/desks/manage.ts';
import { listDesks } from '../store/repositories/desks.ts';
import type { DeskRow } from '../store/schema.ts';
import { letOthersIn } from '../domain/turn.ts';

// The desks a pass (work, watches, mail) goes over, and the turn it gives the rest of the
// process between two of them. On SQLite a desk's statements are answered without a break (the
// driver is synchronous), so a pass over thousands of desks with nothing to do held every
// request for seconds each minute.

/** `desk`: an id or slug for one desk only (an unknown one throws not_found); else every desk. */
export async function desksToPass(deps: Deps, desk?: string): Promise<DeskRow[]> {
  return desk !== undefined ? [await requireDesk(deps.store.db, desk)] : listDesks(deps.store.db);
}

/** Each desk in turn, with the process's other work let in before every desk but the first. */
export async function* inTurn(desks: readonly DeskRow[]): AsyncGenerator<DeskRow> {
  for (const [i, desk] of desks.entries()) {
    if (i > 0) await letOthersIn();
    yield desk;
  }
}
