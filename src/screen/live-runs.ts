import type { DeskContext } from '../domain/context.ts';
import { DeskError } from '../domain/errors.ts';
import { runWork, type RunAnswer } from '../domain/work/run.ts';

// Runs started from the screen, followed live: each step as the runner reports it, then the
// run's outcome. Kept in this process only, for as long as somebody may be watching; the run
// itself is recorded by the domain like any other, and the row's timeline keeps it after.

export type RunEvent = { type: 'step'; text: string } | { type: 'end'; outcome: string; ok: boolean };

export interface LiveRun {
  id: string;
  deskId: string;
  workId: number;
  events: RunEvent[];
  finished: boolean;
  listeners: Set<(e: RunEvent) => void>;
}

const KEEP_AFTER_END_MS = 60 * 60 * 1000;
const runs = new Map<string, LiveRun>();

function emit(run: LiveRun, e: RunEvent): void {
  run.events.push(e);
  if (e.type === 'end') run.finished = true;
  for (const l of run.listeners) l(e);
}

function endWords(answer: RunAnswer): string {
  return answer.ok ? answer.outcome : `${answer.outcome}${answer.reason ? ` ${answer.reason}` : ''}`;
}

/** Starts the run in the background and returns at once; the run page follows it by id. */
export function startLiveRun(ctx: DeskContext, workId: number, id: string): LiveRun {
  const existing = runs.get(id);
  if (existing) return existing;
  const run: LiveRun = { id, deskId: ctx.desk.id, workId, events: [], finished: false, listeners: new Set() };
  runs.set(id, run);
  const onStep = (index: number, description: string) =>
    emit(run, { type: 'step', text: `Step ${index + 1}: ${description}` });
  runWork(ctx, workId, { onStep })
    .then((answer) => emit(run, { type: 'end', outcome: endWords(answer), ok: answer.ok }))
    .catch((err: unknown) => {
      const words =
        err instanceof DeskError ? err.message : 'The run stopped on a fault at the desk end; nothing was changed.';
      emit(run, { type: 'end', outcome: words, ok: false });
    })
    .finally(() => {
      setTimeout(() => runs.delete(id), KEEP_AFTER_END_MS).unref();
    });
  return run;
}

/** A run this process is following, only for the desk that started it. */
export function findLiveRun(deskId: string, workId: number, id: string): LiveRun | null {
  const run = runs.get(id);
  return run && run.deskId === deskId && run.workId === workId ? run : null;
}
