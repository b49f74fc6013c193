import type { Deps } from '../../domain/context.ts';
import { plural } from '../../domain/text.ts';
import { purgeIdempotency } from '../idempotency/purge.ts';
import { runWatchPass, type WatchPassResult } from './pass.ts';

// The scheduler inside the server: a pass at start, then one every interval, each after
// removing expired idempotency records (a failed removal is logged and tried again next
// time). Passes are measured from the end of the previous pass so passes never overlap in one process (other processes are
// kept apart by the unique index). The timer does not keep the process alive, a failing
// pass is logged and the next one still comes, and stopping waits for a pass in flight.

/** The slice of a pino/Fastify logger the scheduler uses. */
export interface SchedulerLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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

const consoleLog: SchedulerLog = {
  info: (obj, msg) => console.info(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

/** Starts the scheduler; the function it returns stops it and resolves once no pass is running. */
export function startWatchScheduler(deps: Deps, opts: WatchSchedulerOptions = {}): () => Promise<void> {
  const intervalMs = Math.max(1, opts.intervalMs ?? deps.config.watchIntervalMs);
  const log = opts.log ?? consoleLog;
  const pass = opts.pass ?? ((d: Deps) => runWatchPass(d));
  const purge = opts.purge ?? purgeIdempotency;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | null = null;

  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    inFlight = (async () => {
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
    })();
    void inFlight.finally(() => {
      inFlight = null;
      if (!stopped) {
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      }
    });
  };

  tick();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (inFlight) await inFlight;
  };
}
