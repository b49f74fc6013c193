import type { Deps } from '../../domain/context.ts';
import { plural } from '../../domain/text.ts';
import { repeat, type SchedulerLog } from '../repeat.ts';
import { PassTurns } from '../../domain/work/pass-turns.ts';
import { SendHold } from '../../domain/work/send-hold.ts';
import { actsDone } from '../../domain/work/pass.ts';
import { runWorkPass, type WorkPassResult } from './pass.ts';

// The work pass inside the server: one at start, then one every DESK_WORK_INTERVAL, measured from
// the end of the previous pass, so a pass that overruns its interval is never started twice in
// one process (across processes, each act is claimed by compare-and-set). A failing pass is
// logged and the next one still comes; stopping ends a pass in flight after the act under way.

export interface WorkSchedulerOptions {
  /** Default: config.workIntervalMs. */
  intervalMs?: number;
  log: SchedulerLog;
  onPass?: (result: WorkPassResult) => void;
  /** The pass to run; tests replace it. */
  pass?: (deps: Deps, stopping: AbortSignal) => Promise<WorkPassResult>;
}

export function startWorkScheduler(deps: Deps, opts: WorkSchedulerOptions): () => Promise<void> {
  const intervalMs = opts.intervalMs ?? deps.config.workIntervalMs;
  // Each pass goes on reading where the one before it stopped (P-pass-7), and leaves a desk's
  // sends alone for a while after its mail server could not be reached (P-pass-8).
  const turns = new PassTurns();
  const hold = new SendHold();
  const pass =
    opts.pass ?? ((d: Deps, stopping: AbortSignal) => runWorkPass(d, { reading: { turns, hold }, stopping }));
  return repeat(intervalMs, async (stopping) => {
    try {
      const result = await pass(deps, stopping);
      // An act put back sent nothing and changed nothing: it is said as what it was, not counted,
      // with the server's words (not reached, or reached and asked to wait, or refused the login).
      const acts = result.desks.reduce((n, d) => n + actsDone(d).length, 0);
      if (acts > 0) opts.log.info({ acts }, `The desk acted on its own ${plural(acts, 'time')}.`);
      for (const d of result.desks) {
        for (const a of d.acts)
          if (a.put_back)
            opts.log.info(
              { desk_id: d.desk_id, work_id: a.work_id, retry_at: d.retry_at, outcome: a.outcome },
              `The mail server did not take the message on "${a.title}", so nothing was sent; the row is as it was, and the desk tries again later.`,
            );
          else if (!a.ok)
            opts.log.error(
              { desk_id: d.desk_id, work_id: a.work_id, outcome: a.outcome },
              'An act of the desk on its own did not succeed.',
            );
        for (const f of d.faults)
          opts.log.error({ desk_id: d.desk_id, work_id: f.work_id, error: f.error }, 'A work pass act failed.');
      }
      for (const f of result.failures)
        opts.log.error({ desk_id: f.desk_id, error: f.error }, 'The work pass failed for a desk.');
      opts.onPass?.(result);
    } catch (err) {
      opts.log.error({ err }, 'The work pass failed; the next one runs on schedule.');
    }
  });
}
