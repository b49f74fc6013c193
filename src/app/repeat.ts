// The loop behind every pass inside the server (watches, work, mail): one at start, then one
// `intervalMs` after the previous one ends, so a pass that overruns is never started twice in
// one process (other processes are kept apart by each pass's own claims). The timer does not
// keep the process alive; `step` reports its own faults. The function returned stops the loop
// and resolves once no step is running.

/** The slice of a pino/Fastify logger the schedulers use. */
export interface SchedulerLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const consoleLog: SchedulerLog = {
  info: (obj, msg) => console.info(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

export function repeat(intervalMs: number, step: () => Promise<void>): () => Promise<void> {
  const every = Math.max(1, intervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | null = null;

  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    inFlight = step();
    void inFlight.finally(() => {
      inFlight = null;
      if (!stopped) {
        timer = setTimeout(tick, every);
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
