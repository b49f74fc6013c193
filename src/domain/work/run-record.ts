import { finishRun, runningOn, type StaleLine } from '../../store/repositories/runs.ts';
import { findWork, moveWork, updateWork } from '../../store/repositories/work.ts';
import type { SendOutcome } from './send.ts';
import { actorName, type DeskContext } from '../context.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished } from '../vocab.ts';
import { atomically, lockRow } from '../../store/tx.ts';
import type { RunRow, WorkRow } from '../../store/schema.ts';
import { insertActivity } from '../../store/repositories/activity.ts';
import type { RunAnswer } from '../contract/work.ts';
import { closedOn } from './step-done.ts';

export type { RunAnswer } from '../contract/work.ts';

// How a run that started is recorded, in one transaction with the row held: the row's status
// (done or waiting when it finished; put back when it could not), last_error when it tried and
// failed, the activity report, the timeline and the desk log, and the answer itself.
// A run that stopped without a result (time ran out, no browser, another call already sending)
// changes nothing on the row and writes no report (D16, P-run-2).

export type RunHow = 'send' | 'draft_send' | 'playbook';

export interface StartedRun {
  run: RunRow;
  /** The row as the run found it (before it went in_progress). */
  row: WorkRow;
  how: RunHow;
  prior: string;
  /** Measures the run's real duration for `ms`. */
  elapsed: () => number;
}

/** The contract's run answer (POST /work/{id}/run). */
interface Told {
  outcome: string;
  done: string;
  /** The runner's lines, one per step carried out, secrets already masked. */
  steps?: string[];
  /** Hides the playbook's secrets in anything written or answered. */
  mask?: (s: string) => string;
}

export type Ending =
  /**
   * The work is carried out: the row becomes done, or waiting when a reply is owed (D12), or
   * open when a reply was read while the desk's message was on its way (it waits to be read).
   */
  | (Told & { kind: 'finished'; to: 'done' | 'waiting' | 'open'; result: string; waiting: string | null })
  /**
   * The desk tried and failed: last_error is set and the row shows fix. Its `outcome` says what
   * failed; whether the row needs a look is said when the run is settled (another writer may
   * have finished the row meanwhile).
   */
  | (Told & { kind: 'failed'; reason: string; needs?: string })
  /**
   * Nothing came of it and nothing is changed on the row. `released`: the desk's own act never
   * began (its mail server could not be reached), so its claim is undone too: it neither counts
   * against the day's cap nor keeps the row from the next pass.
   */
  | (Told & {
      kind: 'stopped';
      reason: string;
      needs?: string;
      timedOut?: boolean;
      interrupted?: boolean;
      released?: boolean;
      /** A send still waiting on the mail server when the run's time ran out. */
      late?: Promise<SendOutcome>;
    });

export const FIX_NEEDS = 'A person to look at what went wrong; the row now shows it as needing a look.';

/** The longest a run this process starts can take, with room for its send's answer. */
function longestRunMs(ctx: DeskContext): number {
  return ctx.config.runTimeoutMs + 2 * ctx.config.mailTimeoutMs + 120_000;
}

/** When a run this process starts at `at` is taken as left behind by a process that stopped. */
export function staleAt(ctx: DeskContext, at: string): string {
  return new Date(Date.parse(at) + longestRunMs(ctx)).toISOString();
}

/**
 * Where runs still marked running stop being under way now: each by the time limits of the
 * process that started it; one begun before runs recorded that, by this process's.
 */
export function staleLine(ctx: DeskContext): StaleLine {
  const now = ctx.clock.now().getTime();
  return { now: new Date(now).toISOString(), legacyBefore: new Date(now - longestRunMs(ctx)).toISOString() };
}

export async function settleRun(ctx: DeskContext, s: StartedRun, e: Ending): Promise<RunAnswer> {
  return atomically(ctx, (tx) => settleIn(tx, s, e));
}

function reportBody(a: RunAnswer, steps: string[]): string {
  const lines = [a.outcome, '', `Done: ${a.done}`];
  if (a.result) lines.push(`Result: ${a.result}`);
  if (a.reason) lines.push(`Reason: ${a.reason}`);
  if (a.needs) lines.push(`Needs: ${a.needs}`);
  if (steps.length > 0) lines.push('', 'Steps:', ...steps.map((l, i) => `${i + 1}. ${l}`));
  return lines.join('\n');
}

async function settleIn(ctx: DeskContext, s: StartedRun, e: Ending): Promise<RunAnswer> {
  const { row, run } = s;
  await lockRow(ctx, row.id);
  const mask = e.mask ?? ((t: string) => t);
  const now = ctx.now();
  const reason = e.kind === 'finished' ? null : mask(e.reason);

  const current = await findWork(ctx.db, ctx.desk.id, row.id);
  if (current) {
    const others = (await runningOn(ctx.db, ctx.desk.id, row.id, staleLine(ctx))).filter((r) => r.id !== run.id);
    if (e.kind === 'finished') {
      // Another writer may have closed the row meanwhile; a finished row is never reopened.
      if (!isFinished(current.status)) {
        const patch = { last_error: null, updated_at: now, ...closedOn(e.to, now) };
        if (current.status === e.to) await updateWork(ctx.db, ctx.desk.id, row.id, patch);
        else await moveWork(ctx.db, ctx.desk.id, row.id, current.status, e.to, patch);
      }
    } else {
      if (e.kind === 'failed' && !isFinished(current.status))
        await updateWork(ctx.db, ctx.desk.id, row.id, { last_error: reason, updated_at: now });
      if (e.kind === 'stopped' && e.released)
        await updateWork(ctx.db, ctx.desk.id, row.id, { desk_acted_at: row.desk_acted_at });
      // Put the row back, unless another run on it is still under way (it will, when it ends).
      if (current.status === 'in_progress' && others.length === 0 && s.prior !== 'in_progress') {
        // A wait that ended while the run was under way (a reply read, a bounce) is not put back.
        const ended = s.prior === 'waiting' && row.waiting_on !== null && current.waiting_on === null;
        await moveWork(ctx.db, ctx.desk.id, row.id, 'in_progress', ended ? 'open' : s.prior);
      }
    }
  }
  const after = await findWork(ctx.db, ctx.desk.id, row.id);
  const finished = e.kind === 'finished';
  // A row another writer finished while this run failed is left as it is, and needs no look.
  const finishedElsewhere = e.kind === 'failed' && current !== undefined && isFinished(current.status);
  const outcome =
    e.kind !== 'failed'
      ? e.outcome
      : finishedElsewhere
        ? `${e.outcome}; "${row.title}" was marked ${current!.status} meanwhile, so it is left as it is.`
        : `${e.outcome}; "${row.title}" needs a look.`;

  const answer: RunAnswer = {
    ok: finished,
    closed: finished && !!after && isFinished(after.status),
    outcome: mask(outcome),
    needs:
      e.kind === 'finished' || finishedElsewhere
        ? null
        : e.kind === 'failed'
          ? (e.needs ?? FIX_NEEDS)
          : (e.needs ?? null),
    waiting: e.kind === 'finished' ? e.waiting : null,
    done: mask(e.done),
    result: e.kind === 'finished' ? mask(e.result) : '',
    activity_id: null,
    ms: s.elapsed(),
    ...(reason !== null ? { reason } : {}),
    ...(e.kind === 'stopped' && e.timedOut ? { timed_out: true as const } : {}),
  };

  if (e.kind !== 'stopped') {
    const report = await insertActivity(ctx.db, {
      deskId: ctx.desk.id,
      kind: 'report',
      workId: row.id,
      arrangementId: row.arrangement_id,
      outcomeId: run.id,
      channel: 'run',
      direction: 'outbound',
      subject: `${finished ? 'Run finished' : 'Run failed'}: ${row.title}`,
      body: reportBody(answer, e.steps ?? []),
      status: 'recorded',
      actor: 'desk',
      failureReason: reason,
      at: now,
    });
    answer.activity_id = report.id;
    await logTimeline(
      ctx,
      row.id,
      finished ? 'run_finished' : 'run_failed',
      answer.outcome + (reason ? ` ${reason}` : ''),
    );
  }

  if (finished) {
    await logEvent(ctx, 'run_finished', answer.outcome, {
      work_id: row.id,
      run_id: run.id,
      activity_id: answer.activity_id,
      status: after?.status ?? null,
      closed: answer.closed,
      result: answer.result,
      ms: answer.ms,
      actor: actorName(ctx.actor),
    });
  } else {
    await logEvent(ctx, 'run_failed', answer.outcome, {
      work_id: row.id,
      run_id: run.id,
      activity_id: answer.activity_id,
      reason,
      timed_out: answer.timed_out === true,
      changed: e.kind === 'failed',
      ms: answer.ms,
      actor: actorName(ctx.actor),
    });
  }

  // Nothing was done and no report written, but the row's history says a run began and why it
  // stopped, so the row does not look as if nobody had tried.
  if (e.kind === 'stopped' && e.interrupted && current && reason)
    await logTimeline(ctx, row.id, 'run_interrupted', `A run was interrupted. ${reason}`);

  const status = finished
    ? 'finished'
    : e.kind === 'failed'
      ? 'failed'
      : answer.timed_out
        ? 'timed_out'
        : e.kind === 'stopped' && e.interrupted
          ? 'interrupted'
          : 'stopped';
  await finishRun(ctx.db, run.id, { status, at: now, ms: answer.ms, report: answer });
  return answer;
}
