import { deskContext, type Deps } from '../../domain/context.ts';
import { DESK_ACTOR, passDesk, type DeskPass, type PassReading } from '../../domain/work/pass.ts';
import { desksToPass, inTurn } from '../desks-in-turn.ts';

// One work pass over every desk, or over one: what the server runs every DESK_WORK_INTERVAL and
// what `desk work pass` runs once. A desk whose pass fails is reported and the others still get theirs.

export interface WorkPassResult {
  desks: DeskPass[];
  failures: Array<{ desk_id: string; error: string }>;
}

/**
 * `desk`: an id or slug to pass over one desk only (an unknown one throws not_found). `reading`:
 * where the last passes stopped (the server's scheduler keeps it from pass to pass). `stopping`:
 * the process is stopping; the pass ends after the act under way.
 */
export async function runWorkPass(
  deps: Deps,
  opts: { desk?: string; reading?: PassReading; stopping?: AbortSignal } = {},
): Promise<WorkPassResult> {
  const desks = await desksToPass(deps, opts.desk);
  const result: WorkPassResult = { desks: [], failures: [] };
  for await (const desk of inTurn(desks)) {
    if (opts.stopping?.aborted) break;
    try {
      result.desks.push(await passDesk(deskContext(deps, desk, DESK_ACTOR), opts.reading, opts.stopping));
    } catch (err) {
      result.failures.push({ desk_id: desk.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}
