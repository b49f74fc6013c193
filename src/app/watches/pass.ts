import { deskContext, type Deps } from '../../domain/context.ts';
import { applyWatches, type WatchCreated } from '../../domain/watches/apply.ts';
import { desksToPass, inTurn } from '../desks-in-turn.ts';

// One pass of the watches over every desk, or over one: what the scheduler runs on its
// interval and what `desk watches run` runs once. A desk whose pass fails is reported and
// the other desks still get theirs.

export interface WatchPassFailure {
  desk_id: string;
  error: string;
}

export interface WatchPassResult {
  /** Desks the pass looked at. */
  desks: number;
  /** The rows this pass created, in the order it made them. */
  created: WatchCreated[];
  failures: WatchPassFailure[];
}

export const WATCH_ACTOR = { type: 'system', name: 'watches' } as const;

/** `desk`: an id or slug to run one desk only (an unknown one throws not_found). */
export async function runWatchPass(deps: Deps, opts: { desk?: string } = {}): Promise<WatchPassResult> {
  const desks = await desksToPass(deps, opts.desk);
  const result: WatchPassResult = { desks: desks.length, created: [], failures: [] };
  for await (const desk of inTurn(desks)) {
    try {
      result.created.push(...(await applyWatches(deskContext(deps, desk, WATCH_ACTOR))));
    } catch (err) {
      result.failures.push({ desk_id: desk.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}
