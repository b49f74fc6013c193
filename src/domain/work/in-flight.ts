import type { Ending, StartedRun } from './run-record.ts';

// Runs under way in this process, by database handle, so that a server that is stopping can
// end the ones still going when its drain limit comes: each is then recorded as interrupted
// (the row put back, nothing claimed as done) and its request answered, instead of being left
// `running` for the next start to find.

/** Who ended the runs: a server at its drain limit, or a command stopped by a signal. */
export type Stopper = 'server' | 'SIGINT' | 'SIGTERM';

/** How a person knows the signal that stopped a command. */
const SIGNAL_WORDS: Record<Exclude<Stopper, 'server'>, string> = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM' };
type Interrupt = (by: Stopper) => void;
const underWay = new Map<object, Set<Interrupt>>();

function interruptedEnding(s: StartedRun, by: Stopper): Ending {
  const title = s.row.title;
  const why =
    by === 'server'
      ? 'The desk was stopping and the run did not finish in time'
      : `The command was stopped (${SIGNAL_WORDS[by]}) before the run finished`;
  return {
    kind: 'stopped',
    interrupted: true,
    outcome:
      by === 'server'
        ? `The run of "${title}" was interrupted: the desk stopped before it finished.`
        : `The run of "${title}" was interrupted: the command was stopped (${SIGNAL_WORDS[by]}) before it finished.`,
    reason:
      s.how === 'playbook'
        ? `${why}; nothing was recorded as done. Run it again.`
        : `${why}; the message's own record says whether it was sent.`,
    done: 'The run did not finish; nothing was recorded as done.',
  };
}

/** How long an interrupted playbook run may take to close its browser before it is answered anyway. */
const BROWSER_CLOSE_MS = 5_000;

/**
 * The run's own ending, or an interruption if the server stops first. An interrupted playbook
 * run is stopped and its browser closed before the interruption is recorded, so no step after
 * it reaches the portal while the row says nothing was done. A send goes on alone: the message's
 * own record says whether it went.
 */
export async function unlessInterrupted(
  db: object,
  s: StartedRun,
  act: (stop: AbortSignal) => Promise<Ending>,
): Promise<Ending> {
  const stop = new AbortController();
  let interrupt!: Interrupt;
  const stopped = new Promise<Ending>((resolve) => {
    interrupt = (by) => {
      if (stop.signal.aborted) return;
      stop.abort();
      const ending = interruptedEnding(s, by);
      if (s.how !== 'playbook') return resolve(ending);
      const closing = new Promise((r) => setTimeout(r, BROWSER_CLOSE_MS).unref());
      void Promise.race([work.catch(() => undefined), closing]).then(() => resolve(ending));
    };
  });
  const work = act(stop.signal);
  const set = underWay.get(db) ?? new Set<Interrupt>();
  underWay.set(db, set);
  set.add(interrupt);
  try {
    const ending = await Promise.race([work, stopped]);
    // A run stopped by the interruption ends on its own first; its ending is the interruption's.
    return stop.signal.aborted ? await stopped : ending;
  } finally {
    set.delete(interrupt);
    if (set.size === 0) underWay.delete(db);
    // Whatever the run was doing goes on alone; its own failure is no longer anyone's answer.
    work.catch(() => undefined);
  }
}

/** How many runs are under way on this database handle: a request's, or the desk's own. */
export function runsUnderWay(db: object): number {
  return underWay.get(db)?.size ?? 0;
}

/** Ends every run under way on this database handle as interrupted; how many there were. */
export function interruptRuns(db: object, by: Stopper): number {
  const set = underWay.get(db);
  if (!set) return 0;
  const all = [...set];
  for (const interrupt of all) interrupt(by);
  return all.length;
}

// Work a run leaves going past its time limit (a send the mail server has not yet answered)
// records its own result when it ends. A process must not close its store before then: the
// message would stay `approved` with nothing to say it went, and a later pass send it again.
const leftRunning = new Set<Promise<unknown>>();

/** Keeps `work` in view until it ends, so the process waits for it before closing its store. */
export function leaveRunning(work: Promise<unknown>): void {
  const kept = work.catch(() => undefined).finally(() => leftRunning.delete(kept));
  leftRunning.add(kept);
}

/** Ends once everything runs left going in this process has recorded its result. */
export async function untilLeftRunningEnds(): Promise<void> {
  while (leftRunning.size > 0) await Promise.all([...leftRunning]);
}
