import { performance } from 'node:perf_hooks';
import type { PlaybookRequest } from '../playbooks.ts';
import { findDesk, grantsOf } from '../../store/repositories/desks.ts';
import { railsClosed } from '../desks/rails.ts';
import { abandonedOn, closeAbandoned, insertRun, runningOn } from '../../store/repositories/runs.ts';
import { findWork, moveWork } from '../../store/repositories/work.ts';
import type { WorkRow } from '../../store/schema.ts';
import { actorName, type DeskContext } from '../context.ts';
import { notFound, notPermitted } from '../errors.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isFinished, UNGRANTABLE } from '../vocab.ts';
import { chaseDue, daysWaiting, isAllowed, needsPerson, outOfChases, repliedWords, unansweredWords } from './derive.ts';
import { draftRow, newestDraft } from './draft.ts';
import { atomically, lockDesk, lockRow } from '../../store/tx.ts';
import { countActedSince } from '../../store/repositories/pass.ts';
import { drivePlaybook } from './run-playbook.ts';
import { NO_BROWSER } from './own.ts';
import { leaveRunning, unlessInterrupted } from './in-flight.ts';
import {
  settleRun,
  staleAt,
  staleLine,
  type Ending,
  type RunAnswer,
  type RunHow,
  type StartedRun,
} from './run-record.ts';
import { IN_FLIGHT, sendDraft, type SendOutcome } from './send.ts';
import { SEND_NOT_KNOWN, sendState } from './unsettled.ts';
import { asSentence, plural } from '../text.ts';
import { afterStep, closedOn } from './step-done.ts';
import { noChaseDue } from './own.ts';
import { writingTo } from './address-day.ts';
import { addressKey } from '../mail/address.ts';

export type { RunAnswer } from './run-record.ts';

// POST /work/{id}/run: the desk carries the work out (D16). In order: an unknown row is 404; a
// row whose class the owner has not granted is 403 not_permitted, whatever else the call says;
// a row that is finished, needs a person, is waiting with nothing due, or that the desk has no
// way to act on answers ok: false and nothing is touched. Otherwise the run sends the row's
// draft, or drafts and sends, or drives the row's playbook, with the row in_progress meanwhile
// (D11), and records what came of it (run-record.ts). Decisions: docs/decisions.md P-run-*.

export interface RunOptions {
  /** Told of each playbook step before it runs, secrets masked: the CLI prints these. */
  onStep?: PlaybookRequest['onStep'];
  /**
   * The desk acting on its own (the work pass, P-pass-3): `run` carries out a granted row,
   * `chase` follows up a row whose chase is due under the `chase` grant, whatever the row's class.
   * The run then also refuses a row another act holds, or one the desk acted on since `since`,
   * and, with `daily`, any row once the desk has acted `cap` times since `from` (its midnight).
   */
  own?: { as: 'run' | 'chase'; since: string; daily?: { cap: number; from: string } };
  /** Told once the row is claimed and the run is under way. */
  onClaim?: () => void;
  /** Told when a send failed because the mailbox's server could not be reached or stopped answering. */
  onMailboxDown?: () => void;
  /** Told when nothing reached the mail server and the row was left as it was, to try again (P-pass-8). */
  onPutBack?: () => void;
}

type Begun = { started: StartedRun } | { refused: RunAnswer };

/** An answer for a run that never started: nothing was written, so there is no activity. */
function refusal(
  elapsed: number,
  r: { outcome: string; reason: string; needs?: string | null; waiting?: string | null },
): RunAnswer {
  return {
    ok: false,
    closed: false,
    outcome: r.outcome,
    needs: r.needs ?? null,
    waiting: r.waiting ?? null,
    done: 'Nothing; the desk did not act.',
    result: '',
    activity_id: null,
    ms: elapsed,
    reason: r.reason,
  };
}

export async function runWork(ctx: DeskContext, workId: number, opts: RunOptions = {}): Promise<RunAnswer> {
  const t0 = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - t0));

  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);

  const begun = await atomically(ctx, (tx) => begin(tx, workId, elapsed, opts));
  if ('refused' in begun) return begun.refused;
  const { started } = begun;

  let ending: Ending;
  try {
    ending = await unlessInterrupted(ctx.db, started, (stop) => act(ctx, started, opts, stop));
  } catch (err) {
    // Put the row back before the fault is reported; the run is recorded as stopped.
    await settleRun(ctx, started, {
      kind: 'stopped',
      outcome: `The run of "${row.title}" stopped on a fault at the desk end; nothing was changed.`,
      reason: 'A fault at the desk end stopped the run.',
      done: 'Nothing was changed.',
    }).catch(() => undefined);
    throw err;
  }
  const answer = await settleRun(ctx, started, ending);
  if (ending.kind === 'stopped' && ending.late) leaveRunning(ending.late.then((sent) => afterLateSend(ctx, row, sent)));
  return answer;
}

/**
 * A send the mail server answered after the run's time ran out, once the run had put the row
 * back: a message that went moves the row as the run would have (waiting when a reply is owed,
 * else done), so the next pass does not send it again. A failed one recorded its own failure.
 */
async function afterLateSend(ctx: DeskContext, row: WorkRow, sent: SendOutcome): Promise<void> {
  if (!sent.delivered || sent.heard !== undefined) return;
  await atomically(ctx, async (tx) => {
    await lockRow(tx, row.id);
    const current = await findWork(tx.db, tx.desk.id, row.id);
    // Finished by somebody meanwhile, or taken up by another run, which settles it.
    if (!current || isFinished(current.status) || current.status === 'in_progress') return;
    const to = afterStep(current);
    if (current.status === to) return;
    const now = tx.now();
    await moveWork(tx.db, tx.desk.id, row.id, current.status, to, {
      updated_at: now,
      ...closedOn(to, now),
    });
    const said =
      to === 'waiting'
        ? `The message went after the run's time ran out; now waiting on ${current.waiting_on}.`
        : `The message went after the run's time ran out; "${row.title}" is done.`;
    await logTimeline(tx, row.id, 'run_finished', said);
  });
}

/** The grant is the only permission there is (contract: nothing substitutes for it): 403 without it. */
async function requireGrant(ctx: DeskContext, row: WorkRow, opts: RunOptions): Promise<void> {
  const grants = await grantsOf(ctx.db, ctx.desk.id);
  if (opts.own?.as === 'chase') {
    // Chasing is chase work whatever the row's class, but never money or sign (P-pass-2).
    if (!isAllowed('chase', grants)) throw notPermitted('chase', ctx.desk.slug);
    if (row.class !== null && (UNGRANTABLE as readonly string[]).includes(row.class))
      throw notPermitted(row.class, ctx.desk.slug);
  } else if (!isAllowed(row.class, grants)) throw notPermitted(row.class, ctx.desk.slug);
}

/** Inside one transaction with the row held: decide what the run does, or why it does nothing, and mark it in_progress. */
async function begin(ctx: DeskContext, workId: number, elapsed: () => number, opts: RunOptions): Promise<Begun> {
  await lockRow(ctx, workId);
  const row = await findWork(ctx.db, ctx.desk.id, workId);
  if (!row) throw notFound('work item', workId);
  // Read with the row held, in the claim's transaction, so a grant withdrawn before the claim
  // stops this act.
  await requireGrant(ctx, row, opts);
  const refuse = (r: Parameters<typeof refusal>[1]): Begun => ({ refused: refusal(elapsed(), r) });

  if (isFinished(row.status)) {
    return refuse({
      outcome: `"${row.title}" is already ${row.status}; nothing was run.`,
      reason: `This row is already ${row.status}; there is nothing left to run.`,
    });
  }
  if (needsPerson(row)) {
    const sign = row.class === 'sign';
    return refuse({
      outcome: `"${row.title}" needs a person; the desk did not act.`,
      reason: sign
        ? 'It needs a signature, and only a person can sign; the desk has not acted.'
        : 'The owner marked this step as one only a person can do; the desk has not acted.',
      needs: sign ? 'A person to sign it.' : 'A person to do this step.',
    });
  }

  // A reply waits to be read (action own, "Read the reply"): a person reads it and decides, and
  // answers it by approving the desk's draft (P-mail-3); a run would send without that person.
  if (row.replied_at) {
    return refuse({
      outcome: `"${row.title}" needs a person; the desk did not act.`,
      reason: `${repliedWords(row, ctx.desk.timezone)}; a person reads the reply and decides what happens next.`,
      needs: 'A person to read the reply.',
    });
  }
  if (outOfChases(row, ctx.today(), ctx.desk.timezone)) {
    return refuse({
      outcome: `"${row.title}" needs a person; the desk did not act.`,
      reason: `${unansweredWords(row, ctx.desk.timezone)}; the desk has stopped chasing.`,
      needs: 'A person to follow it up.',
    });
  }
  if (opts.own) {
    const why = ownRefusal(ctx, row, opts.own) ?? (await railsRefusal(ctx, opts.own.daily));
    if (why) return refuse({ outcome: `The desk left "${row.title}" alone: ${why}`, reason: why });
  }

  const line = staleLine(ctx);
  const running = await runningOn(ctx.db, ctx.desk.id, row.id, line);
  // A message is sent at most once (D14): while another call is sending on this row, a run
  // neither sends it again nor drafts a second one behind it.
  const sending = running.some((r) => r.how !== 'playbook') ? 'sending' : await sendState(ctx, row.id);
  if (sending === 'sending') {
    return refuse({
      outcome: `Another request is already sending the message on "${row.title}"; nothing was done.`,
      reason: IN_FLIGHT,
    });
  }
  if (sending === 'not_known') {
    return refuse({
      outcome: `The desk stopped while sending a message on "${row.title}", so whether it went is not known; nothing was done.`,
      reason: SEND_NOT_KNOWN,
    });
  }

  let how: RunHow;
  const prepared = await newestDraft(ctx, row.id);
  if (prepared) {
    how = 'send';
    // On its own, a message on a row already waiting is a chase (P-pass-2), sent only as one.
    if (opts.own && opts.own.as !== 'chase' && row.waiting_on?.trim()) {
      const why = chaseDue(row, ctx.today(), ctx.desk.timezone)
        ? `It is waiting on ${row.waiting_on}, so the message prepared on it is a chase, which the desk sends only as one.`
        : noChaseDue(row);
      return refuse({ outcome: `The desk left "${row.title}" alone: ${why}`, reason: why, waiting: row.waiting_on });
    }
  } else if (row.waiting_on && !chaseDue(row, ctx.today(), ctx.desk.timezone)) {
    const waited = daysWaiting(row, ctx.today(), ctx.desk.timezone) ?? 0;
    return refuse({
      outcome: `"${row.title}" is waiting on ${row.waiting_on}; nothing was sent.`,
      reason: `Waiting on ${row.waiting_on} ${waited >= 1 ? `for ${plural(waited, 'day')}` : 'since today'}; the desk chases after ${plural(row.chase_after_days, 'day')}, so nothing was sent.`,
      waiting: row.waiting_on,
    });
  }
  // A chase on the desk's own is a message to whoever has gone quiet, under the chase grant:
  // never the row's playbook, which is its own class of work, granted or not (P-pass-2).
  else if (row.playbook_id !== null && opts.own?.as !== 'chase') how = 'playbook';
  else if (row.contact_email?.trim()) how = 'draft_send';
  else if (opts.own?.as === 'chase') {
    return refuse({
      outcome: `The desk has nobody to chase on "${row.title}".`,
      reason: `Nobody on this row can be written to, so the desk cannot chase ${row.waiting_on}. Say who it goes to.`,
      needs: 'Somebody to write to.',
    });
  } else {
    return refuse({
      outcome: `The desk has no way to do "${row.title}".`,
      reason:
        'Nobody on this row can be written to and it has no playbook, so the desk has no way to act. Say who it goes to.',
      needs: 'Somebody to write to, or a playbook to follow.',
    });
  }

  // The status to put back if the run cannot finish. A row already in_progress is another
  // run's (or a stopped process's): take the status that run found.
  // On its own the desk does not claim a row it cannot begin: the claim would use up an act of
  // the day's cap and hold the row for a day, for nothing done and nothing to show for it.
  if (how === 'playbook' && opts.own && !ctx.engine.runner.available())
    return refuse({
      outcome: `The desk left "${row.title}" alone: no browser is available to run its playbook.`,
      reason: NO_BROWSER,
      needs: 'A browser on the machine that runs the desk (set DESK_CHROMIUM_PATH).',
    });

  // One message a day to an address (P-pass-6), checked again here with the desk held: another
  // pass may have chosen a row to the same address before this one's message went.
  if (opts.own && how !== 'playbook') {
    const written = how === 'send' ? prepared?.to_address : row.contact_email;
    const to = written ? addressKey(written) : undefined;
    if (to && (await writingTo(ctx, row.id, to, opts.own.since))) {
      const why = `a message to ${to} went, or is going, within 24 hours, and the desk writes to an address once a day.`;
      return refuse({ outcome: `The desk left "${row.title}" alone: ${why}`, reason: why });
    }
  }

  let prior = row.status;
  if (row.status === 'in_progress') {
    prior =
      running[0]?.prior_status ?? (await abandonedOn(ctx.db, ctx.desk.id, row.id, line))?.prior_status ?? row.status;
  } else if (
    !(await moveWork(
      ctx.db,
      ctx.desk.id,
      row.id,
      row.status,
      'in_progress',
      opts.own ? { desk_acted_at: ctx.now() } : {},
    ))
  ) {
    return refuse({
      outcome: `"${row.title}" changed while the run was starting; nothing was done.`,
      reason: 'The row changed while the run was starting; run it again.',
    });
  }
  const now = ctx.now();
  await closeAbandoned(ctx.db, ctx.desk.id, row.id, line, now);
  const run = await insertRun(ctx.db, {
    deskId: ctx.desk.id,
    workId: row.id,
    how,
    priorStatus: prior,
    at: now,
    staleAt: staleAt(ctx, now),
  });
  const words = {
    send: 'sending its prepared message',
    draft_send: 'drafting and sending its message',
    playbook: 'following its playbook',
  }[how];
  await logEvent(ctx, 'run_started', `Started running "${row.title}": ${words}.`, {
    work_id: row.id,
    run_id: run.id,
    how,
    actor: actorName(ctx.actor),
    ...(opts.own ? { on_own: opts.own.as } : {}),
  });
  opts.onClaim?.();
  return { started: { run, row, how, prior, elapsed } };
}

/**
 * Why the desk may not act on its own now: it is paused, outside its working hours, or has done
 * its acts for today. Read in the same transaction as the claim, with the desk held, so a pause
 * committed while a pass runs stops the pass's next act, and two processes' claims take turns
 * on the cap.
 */
async function railsRefusal(
  ctx: DeskContext,
  daily: { cap: number; from: string } | undefined,
): Promise<string | null> {
  await lockDesk(ctx);
  const closed = railsClosed(await findDesk(ctx.db, ctx.desk.id), ctx.clock.now());
  if (closed === 'paused') return 'it is paused.';
  if (closed === 'outside_hours') return 'it is outside its working hours.';
  if (!daily) return null;
  const acted = await countActedSince(ctx.db, ctx.desk.id, daily.from);
  return acted >= daily.cap ? `it has done its ${plural(daily.cap, 'act')} for today.` : null;
}

/** Why the desk will not act on this row on its own right now, beyond what any run refuses. */
function ownRefusal(ctx: DeskContext, row: WorkRow, own: NonNullable<RunOptions['own']>): string | null {
  if (row.status === 'in_progress') return 'another act on it is under way.';
  if (row.last_error) return 'it needs a look first.';
  if (row.desk_acted_at && row.desk_acted_at >= own.since) return 'the desk acted on it in the last 24 hours.';
  if (own.as === 'chase' && !chaseDue(row, ctx.today(), ctx.desk.timezone)) return 'no chase is due.';
  return null;
}

const OUT_OF_TIME = Symbol('out of time');

/** The run's time limit (DESK_RUN_TIMEOUT) bounds every kind of run, a send included. */
async function withinRunTime<T>(ctx: DeskContext, s: StartedRun, work: Promise<T>): Promise<T | typeof OUT_OF_TIME> {
  const left = Math.max(0, ctx.config.runTimeoutMs - s.elapsed());
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<typeof OUT_OF_TIME>((resolve) => (timer = setTimeout(() => resolve(OUT_OF_TIME), left)));
  try {
    const r = await Promise.race([work, limit]);
    // A send still under way finishes on its own and records its result; its failure is recorded there.
    if (r === OUT_OF_TIME) leaveRunning(work);
    return r;
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

/** Does the work; every way it can end is an Ending, and only faults at the desk end throw. */
async function act(ctx: DeskContext, s: StartedRun, opts: RunOptions, stop: AbortSignal): Promise<Ending> {
  const { row } = s;
  if (s.how === 'playbook') return playbookEnding(ctx, row, opts, stop);

  // The message this run wrote, if it wrote one: a draft the row had already is not the run's
  // to withdraw when the send fails.
  let wrote: number | null = null;
  if (s.how === 'draft_send') {
    // The same drafting as POST /work/{id}/draft.
    const { answer: drafted, wrote: written } = await draftRow(ctx, row.id);
    wrote = written;
    if (!drafted.drafted) {
      return {
        kind: 'stopped',
        outcome: `The desk could not draft a message for "${row.title}"; nothing was sent.`,
        reason: drafted.reason,
        done: 'Nothing was sent.',
        needs: 'Somebody to write to.',
      };
    }
  }
  const draft = await newestDraft(ctx, row.id);
  if (!draft)
    return {
      kind: 'stopped',
      outcome: `Another request is already sending the message on "${row.title}"; nothing was done.`,
      reason: IN_FLIGHT,
      done: 'Nothing was sent.',
    };

  const current = (await findWork(ctx.db, ctx.desk.id, row.id)) ?? row;
  const subject = draft.subject ?? '';
  const to = draft.to_address ?? '';
  const who = row.contact_name && row.contact_email === to ? `${row.contact_name} <${to}>` : to;
  // On its own, a send that never reached the mail server leaves the row as it was (P-pass-8).
  const putBack = opts.own ? (wrote !== null && draft.id === wrote ? 'drop' : 'keep') : undefined;
  const sending = sendDraft(ctx, current, draft, { actor: 'desk', putBack });
  const sent = await withinRunTime(ctx, s, sending);
  // A server that cannot be reached, or keeps a send past the run's limit, would do the same to
  // the next message through it: the caller may hold the rest.
  if (sent === OUT_OF_TIME || sent.unreachable || sent.refusedMailbox) opts.onMailboxDown?.();
  if (sent === OUT_OF_TIME) {
    // The mail server has the message and has not answered: whether it went is not known yet.
    // The message stays approved, and the send records sent or failed when the answer comes.
    const reason = `The mail server had not answered within the run's time limit (${Math.round(ctx.config.runTimeoutMs / 1000)}s); the message's own record will say whether it was sent.`;
    return {
      kind: 'stopped',
      timedOut: true,
      outcome: `The run of "${row.title}" ran out of time while sending "${subject}".`,
      reason,
      done: `Approved "${subject}" for ${who || 'nobody'}; its send had not been answered.`,
      late: sending,
    };
  }
  if (sent.skipped)
    return {
      kind: 'stopped',
      outcome: `Another request is already sending the message on "${row.title}"; nothing was done.`,
      reason: sent.note,
      done: 'Nothing was sent.',
    };
  if (sent.putBack) opts.onPutBack?.();
  if (sent.putBack)
    return {
      kind: 'stopped',
      released: true,
      // In the mail server's own words: reached and asked for later (4xx), not reached, or the
      // mailbox refused, each is said as what it was (P-pass-8).
      outcome: `"${subject}" was not sent: ${asSentence(sent.note)} "${row.title}" is as it was, and the desk tries again later.`,
      reason: sent.note,
      done: 'Nothing was sent.',
    };
  if (sent.bounced)
    return {
      kind: 'failed',
      outcome: `"${subject}" went to ${who} and bounced`,
      reason: sent.note,
      done: `Sent "${subject}" to ${who}; it bounced.`,
    };
  if (sent.failed) {
    return {
      kind: 'failed',
      outcome: sent.unknown
        ? `The mail server stopped answering while "${subject}" went to ${who}`
        : `Could not send "${subject}" to ${who || 'nobody'}`,
      reason: sent.note,
      done: sent.unknown
        ? `Approved "${subject}" for ${who}; whether it went is not known.`
        : `Approved "${subject}" for ${who || 'nobody'}; it was not sent.`,
    };
  }
  if (sent.heard !== undefined)
    return {
      kind: 'finished',
      to: 'open',
      outcome: `Sent "${subject}" to ${who}; ${sent.heard ?? 'somebody'} replied meanwhile, so "${row.title}" waits for a person to read the reply.`,
      done: `Sent "${subject}" to ${who}.`,
      result: sent.note,
      waiting: null,
    };
  const after = (await findWork(ctx.db, ctx.desk.id, row.id)) ?? current;
  const waiting = after.waiting_on;
  return {
    kind: 'finished',
    to: afterStep(after),
    outcome: waiting
      ? `Sent "${subject}" to ${who}; now waiting on ${waiting}.`
      : `Sent "${subject}" to ${who}; "${row.title}" is done.`,
    done: `Sent "${subject}" to ${who}.`,
    result: sent.note,
    waiting,
  };
}

async function playbookEnding(ctx: DeskContext, row: WorkRow, opts: RunOptions, stop: AbortSignal): Promise<Ending> {
  const { name, steps, result, mask } = await drivePlaybook(ctx, row, opts.onStep, stop);
  const pb = name ? `the playbook "${name}"` : 'its playbook';
  const reason = mask(result.error ?? 'The playbook did not finish.');
  const stepsLog = result.log.map(mask);
  if (result.ok) {
    const reads = Object.entries(result.reads);
    const text =
      result.reads.result ?? (reads.length === 1 ? reads[0]![1] : reads.map(([k, v]) => `${k}: ${v}`).join('; '));
    return {
      kind: 'finished',
      to: 'done',
      outcome: `Followed ${pb} for "${row.title}"; it is done${text ? ` (${text})` : ''}.`,
      done: `Followed ${pb}: ${plural(result.stepsDone, 'step')}.`,
      result: mask(text),
      waiting: null,
      steps: stepsLog,
      mask,
    };
  }
  const progress = `${result.stepsDone} of ${plural(steps, 'step')} of ${pb}`;
  if (result.timedOut) {
    return {
      kind: 'stopped',
      timedOut: true,
      outcome: `The run of "${row.title}" ran out of time; nothing was changed.`,
      reason,
      done: `Followed ${progress} before the time ran out; nothing was recorded.`,
      steps: stepsLog,
      mask,
    };
  }
  if (result.unavailable) {
    return {
      kind: 'stopped',
      outcome: `No browser is available to run "${row.title}"; nothing was changed.`,
      reason,
      done: 'Nothing was changed.',
      needs: 'A browser on the machine that runs the desk (set DESK_CHROMIUM_PATH).',
      mask,
    };
  }
  return {
    kind: 'failed',
    outcome: `${name ? `The playbook "${name}"` : 'The playbook'} for "${row.title}" failed`,
    reason,
    done: `Followed ${progress} before it failed.`,
    steps: stepsLog,
    mask,
  };
}
