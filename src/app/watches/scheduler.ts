import type { Deps } from '../../domain/context.ts';
import { plural } from '../../domain/text.ts';
import { purgeIdempotency } from '../idempotency/purge.ts';
import { runWatchPass, type WatchPassResult } from './pass.ts';
import { consoleLog, repeat, type SchedulerLog } from '../repeat.ts';

// The watch pass inside the server, on the shared loop (../repeat.ts), each pass after removing
// expired idempotency records (a failed removal is logged and tried again next time). Other
// processes are kept apart by the unique index; a failing pass is logged and the next one
// still comes.

export type { SchedulerLog };

export interface WatchSchedulerOptions {
  /** Default: config.watchIntervalMs. */
  intervalMs?: number;
  log?: SchedulerLog;
  /** Called after each pass that completed. */
  onPass?: (result: WatchPassResult) => void;
  /** The pass to run; tests replace it to make one fail. */
  pass?: (deps: Deps) => Promise<WatchPassResult>;
  /** The housekeeping after each pass; default: purgeIdempotency. */
  purge?: (deps: Deps) => Promise<number>;
}

/** Starts the scheduler; the function it returns stops it and resolves once no pass is running. */
export function startWatchScheduler(deps: Deps, opts: WatchSchedulerOptions = {}): () => Promise<void> {
  const intervalMs = opts.intervalMs ?? deps.config.watchIntervalMs;
  const log = opts.log ?? consoleLog;
  const pass = opts.pass ?? ((d: Deps) => runWatchPass(d));
  const purge = opts.purge ?? purgeIdempotency;
  return repeat(intervalMs, async () => {
    try {
      const purged = await purge(deps);
      if (purged > 0) log.info({ purged }, `Removed ${purged} expired idempotency record(s).`);
    } catch (err) {
      log.error({ err }, 'Removing expired idempotency records failed; the next pass tries again.');
    }
    try {
      const result = await pass(deps);
      if (result.created.length > 0)
        log.info({ created: result.created.length }, `Watches opened ${plural(result.created.length, 'row')}.`);
      for (const f of result.failures)
        log.error({ desk_id: f.desk_id, error: f.error }, 'The watch pass failed for a desk.');
      opts.onPass?.(result);
    } catch (err) {
      log.error({ err }, 'The watch pass failed; the next one runs on schedule.');
    }
  });
}
