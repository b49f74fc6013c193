// The loop behind every pass inside the server (watches, work, mail): one at start, then one
// `intervalMs` after the previous one ends, so a pass that overruns is never started twice in
// one process (other processes are kept apart by each pass's own claims). A step that left work
// behind (a mailbox with more messages than one pass reads) asks for the next one soon. The
// timer does not keep the process alive; `step` reports its own faults. The function returned
// stops the loop: it aborts the signal each step is given, so a long pass stops between its
// acts, and resolves once no step is running.

/** How soon a step that asked to go `again` runs next. */
export const AGAIN_MS = 1_000;

/** The slice of a pino/Fastify logger the schedulers use. */
export interface SchedulerLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const consoleLog: SchedulerLog = {
  info: (obj, msg) => console.info(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

export function repeat(intervalMs: number, step: (stopping: AbortSignal) => Promise<unknown>): () => Promise<void> {
  const every = Math.max(1, intervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> | null = null;
  const stopping = new AbortController();

  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    inFlight = step(stopping.signal);
    void inFlight.then(
      (asked) => next(asked === 'again' ? Math.min(every, AGAIN_MS) : every),
      () => next(every),
    );
  };
  const next = (ms: number): void => {
    inFlight = null;
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  };

  tick();
  return async () => {
    stopped = true;
    stopping.abort();
    if (timer) clearTimeout(timer);
    if (inFlight) await inFlight;
  };
}
