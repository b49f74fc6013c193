import { actAddress } from './address-day.ts';
import { performance } from 'node:perf_hooks';
import { findDesk, grantsOf } from '../../store/repositories/desks.ts';
import type { PassSource } from '../../store/repositories/pass.ts';
import { rowsWithDrafts } from '../../store/repositories/work.ts';
import { mailboxOf, mailboxSendFaulted } from '../../store/repositories/connections.ts';
import { lastSentToSince } from '../../store/repositories/activity.ts';
import type { DeskRow, WorkRow } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { addDaysUpToLast, DAY_MS, midnightIn } from '../dates.ts';
import { DeskError } from '../errors.ts';
import { actsLeft, capDayStart, railsClosed } from '../desks/rails.ts';
import { UNGRANTABLE } from '../vocab.ts';
import { ownAct } from './own.ts';
import { settleAbandoned } from './abandoned.ts';
import { rowsInTurn, type PassTurns } from './pass-turns.ts';
import { runWork } from './run.ts';
import { queueOrderOn } from '../../store/repositories/queue.ts';
import { ShortList } from './short-list.ts';
import type { SendHold } from './send-hold.ts';
import { letOthersIn } from '../turn.ts';

// One pass of a desk over its own list (issue 17): within its rails (not paused, in working
// hours, under its daily cap), every row the desk may act on by itself is carried out through
// runWork, the verb behind POST /work/{id}/run, which claims the row by compare-and-set first, so
// two passes (or a pass and an API call) never act twice. A row whose act fails is left as the
// run leaves it, and the pass goes on with the others.
//
// The rows in reach are read a page at a time, letting other work in between pages, and only
// the best of them in queue order are kept to act on (twice the acts left under the cap, one
// for each address): however many rows are in reach, a pass holds a page and that short list,
// and reads at most READ_MOST rows of each source, going on next time from where it stopped
// (pass-turns.ts).

export const DESK_ACTOR = { type: 'system', name: 'desk' } as const;

export interface PassAct {
  work_id: number;
  title: string;
  as: 'run' | 'chase';
  ok: boolean;
  outcome: string;
  activity_id: number | null;
  /** Nothing reached the mail server, so the row was left as it was for a later pass (P-pass-8). */
  put_back?: true;
}

/** The acts that count as the desk's: one put back sent nothing and changed nothing (P-pass-8). */
export function actsDone(d: Pick<DeskPass, 'acts'>): PassAct[] {
  return d.acts.filter((a) => !a.put_back);
}

export interface DeskPass {
  desk_id: string;
  slug: string;
  /**
   * acted: the pass looked at the rows (whether or not any needed acting on); stopped: the
   * process running it began to stop, and the rest is left for the next pass; mailbox_down: a
   * send found the desk's mail server unreachable or not answering, so no more rows were tried
   * against it, or the desk's sends are held after such a send (`retry_at`).
   */
  state: 'acted' | 'paused' | 'outside_hours' | 'cap_reached' | 'gone' | 'stopped' | 'mailbox_down';
  acts: PassAct[];
  /** Rows the pass could not act on because of a fault at the desk end, with why. */
  faults: Array<{ work_id: number; error: string }>;
  /** With mailbox_down, when a process that keeps a hold (the server) tries the desk's sends again. */
  retry_at?: string;
  ms: number;
}

/** How a pass reads the rows in reach (P-pass-7): where the last pass stopped, and how many a source. */
export interface PassReading {
  /** Kept from pass to pass by a process that runs them; without it a pass starts at the top. */
  turns?: PassTurns;
  /** Rows read from each source at most; READ_MOST unless a test says otherwise. */
  most?: number;
  /** Kept from pass to pass: how long each desk's sends wait after its mail server was not reached. */
  hold?: SendHold;
}

export async function passDesk(ctx: DeskContext, reading: PassReading = {}, stopping?: AbortSignal): Promise<DeskPass> {
  const t0 = performance.now();
  const result: DeskPass = { desk_id: ctx.desk.id, slug: ctx.desk.slug, state: 'acted', acts: [], faults: [], ms: 0 };
  const done = (state: DeskPass['state']) => {
    result.state = state;
    result.ms = Math.max(0, Math.round(performance.now() - t0));
    return result;
  };
  // The rails as they are now, not as they were when the pass began; each claim reads them
  // again (run.ts), and a row not taken has the pass look whether they have closed.
  const desk = await findDesk(ctx.db, ctx.desk.id);
  // Bookkeeping, not an act: done whatever the rails, so no row stays "being worked on" for good.
  if (desk) await settleAbandoned(ctx);
  const closed = railsClosed(desk, ctx.clock.now());
  if (closed || !desk) return done(closed ?? 'gone');
  const now = ctx.clock.now();
  const held = reading.hold?.until(desk.id, now);
  // A hold ends early once the fault is gone: a test message got through, the settings changed.
  if (held && (await mailboxSendFaulted(ctx.db, desk.id))) {
    result.retry_at = held.toISOString();
    return done('mailbox_down');
  }
  if (held) reading.hold?.clear(desk.id);
  const today = ctx.today();
  const dayStart = capDayStart(desk, today);
  let left = await actsLeft(ctx.db, desk, today);
  if (left <= 0) return done('cap_reached');

  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const chosen = await choose(ctx, desk, today, dayAgo, left * 2, reading);

  for (const { row, as, to } of chosen) {
    if (stopping?.aborted) return done('stopped');
    // One message a day from the desk to any one address, whichever row it is about.
    if (to && (await lastSentToSince(ctx.db, desk.id, to, dayAgo))) continue;

    let claimed = false;
    let mailboxDown = false;
    let putBack = false;
    try {
      const answer = await runWork(ctx, row.id, {
        own: { as, since: dayAgo, daily: { cap: desk.daily_cap, from: dayStart } },
        onClaim: () => (claimed = true),
        onMailboxDown: () => (mailboxDown = true),
        onPutBack: () => (putBack = true),
      });
      if (claimed)
        result.acts.push({
          work_id: row.id,
          title: row.title,
          as,
          ok: answer.ok,
          outcome: answer.outcome,
          activity_id: answer.activity_id,
          ...(putBack ? { put_back: true as const } : {}),
        });
    } catch (err) {
      // A row deleted (or a grant withdrawn) since the pass read it is simply skipped.
      if (!(err instanceof DeskError && (err.code === 'not_found' || err.code === 'not_permitted')))
        result.faults.push({ work_id: row.id, error: err instanceof Error ? err.message : String(err) });
    }
    if (mailboxDown) {
      const until = reading.hold?.missed(desk.id, ctx.clock.now());
      if (until) result.retry_at = until.toISOString();
      return done('mailbox_down');
    }
    if (claimed && to) reading.hold?.clear(desk.id);
    if (!claimed) {
      const stop = railsClosed(await findDesk(ctx.db, desk.id), ctx.clock.now());
      if (stop) return done(stop);
    }
    if (claimed ? --left <= 0 : (await actsLeft(ctx.db, desk, today)) <= 0) return done('cap_reached');
  }
  return done('acted');
}

/**
 * Up to `most` rows the desk would act on now, best first in queue order, at most one for each
 * address (one message a day to an address), among the rows in reach this pass reads: by date in
 * each granted class, and those a chase may be due on, a page at a time.
 */
async function choose(
  ctx: DeskContext,
  desk: DeskRow,
  today: string,
  dayAgo: string,
  most: number,
  reading: PassReading,
): Promise<ShortList['items']> {
  const grants = await grantsOf(ctx.db, desk.id);
  const horizon = addDaysUpToLast(today, desk.act_within_days);
  const sources: PassSource[] = [];
  for (const cls of grants) {
    if ((UNGRANTABLE as readonly string[]).includes(cls)) continue;
    sources.push({ kind: 'due', cls, horizon }, { kind: 'undated', cls });
  }
  // Chase intervals are at least a day, so nothing out since the desk's midnight can be due.
  if (grants.has('chase')) sources.push({ kind: 'waiting', before: midnightIn(desk.timezone, today).toISOString() });

  const list = new ShortList(most, queueOrderOn(today));
  const browser = ctx.engine.runner.available();
  const mailbox = (await mailboxOf(ctx.db, desk.id)) !== undefined;
  const offer = async (row: WorkRow, drafts: ReadonlyMap<number, string | null>) => {
    if (!list.mightTake(row)) return;
    const decided = ownAct({
      row,
      hasDraft: drafts.has(row.id),
      grants,
      today,
      timezone: desk.timezone,
      actWithinDays: desk.act_within_days,
      dayAgo,
      browser,
      mailbox,
    });
    if ('leave' in decided) return;
    const to = actAddress(row, drafts);
    const held = to ? list.heldFor(to) : undefined;
    if (held ? list.order(row, held.row) >= 0 : to && (await lastSentToSince(ctx.db, desk.id, to, dayAgo))) return;
    list.add({ row, as: decided.as, to });
  };
  for (const source of sources) {
    for await (const page of rowsInTurn(ctx.db, desk.id, source, reading.turns, reading.most)) {
      const drafts = await rowsWithDrafts(
        ctx.db,
        desk.id,
        page.map((r) => r.id),
      );
      for (const row of page) await offer(row, drafts);
      // Requests waiting on this process go before the next page.
      await letOthersIn();
    }
  }
  return list.items;
}
