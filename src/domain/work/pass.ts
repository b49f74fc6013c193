import { performance } from 'node:perf_hooks';
import { findDesk, grantsOf } from '../../store/repositories/desks.ts';
import { countActedSince, rowsInReach, rowsWaitingSince } from '../../store/repositories/pass.ts';
import { rowsWithDrafts } from '../../store/repositories/work.ts';
import { draftOn, sentToSince } from '../../store/repositories/activity.ts';
import type { WorkRow } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { addDays, midnightIn } from '../dates.ts';
import { DeskError } from '../errors.ts';
import { isWorkingTime } from '../desks/hours.ts';
import { UNGRANTABLE } from '../vocab.ts';
import { ownAct } from './own.ts';
import { runWork } from './run.ts';

// One pass of a desk over its own list (issue 17): within its rails (not paused, in working
// hours, under its daily cap), every row the desk may act on by itself is carried out through
// runWork, the verb behind POST /work/{id}/run, which claims the row by compare-and-set first, so
// two passes (or a pass and an API call) never act twice. A row whose act fails is left as the
// run leaves it, and the pass goes on with the others.

export const DESK_ACTOR = { type: 'system', name: 'desk' } as const;

export interface PassAct {
  work_id: number;
  title: string;
  as: 'run' | 'chase';
  ok: boolean;
  outcome: string;
  activity_id: number | null;
}

export interface DeskPass {
  desk_id: string;
  slug: string;
  /** acted: the pass looked at the rows (whether or not any needed acting on). */
  state: 'acted' | 'paused' | 'outside_hours' | 'cap_reached' | 'gone';
  acts: PassAct[];
  /** Rows the pass could not act on because of a fault at the desk end, with why. */
  faults: Array<{ work_id: number; error: string }>;
  ms: number;
}

const DAY_MS = 24 * 3600_000;

export async function passDesk(ctx: DeskContext): Promise<DeskPass> {
  const t0 = performance.now();
  const result: DeskPass = { desk_id: ctx.desk.id, slug: ctx.desk.slug, state: 'acted', acts: [], faults: [], ms: 0 };
  const done = (state: DeskPass['state']) => {
    result.state = state;
    result.ms = Math.max(0, Math.round(performance.now() - t0));
    return result;
  };
  // The rails as they are now, not as they were when the pass began.
  const desk = await findDesk(ctx.db, ctx.desk.id);
  if (!desk) return done('gone');
  if (desk.paused) return done('paused');
  const now = ctx.clock.now();
  if (!isWorkingTime(desk.hours, desk.timezone, now)) return done('outside_hours');
  const today = ctx.today();
  const dayStart = midnightIn(desk.timezone, today).toISOString();
  let left = desk.daily_cap - (await countActedSince(ctx.db, desk.id, dayStart));
  if (left <= 0) return done('cap_reached');

  const rows = await candidates(ctx, desk.act_within_days, today);
  const grants = await grantsOf(ctx.db, desk.id);
  const drafts = await rowsWithDrafts(
    ctx.db,
    desk.id,
    rows.map((r) => r.id),
  );
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();

  for (const row of rows) {
    const decided = ownAct({
      row,
      hasDraft: drafts.has(row.id),
      grants,
      today,
      timezone: desk.timezone,
      actWithinDays: desk.act_within_days,
      dayAgo,
    });
    if ('leave' in decided) continue;
    const to = drafts.has(row.id) ? (await draftOn(ctx.db, desk.id, row.id))?.to_address : row.contact_email;
    // One message a day from the desk to any one address, whichever row it is about.
    if (to && (await sentToSince(ctx.db, desk.id, to.trim(), dayAgo))) continue;

    let claimed = false;
    try {
      const answer = await runWork(ctx, row.id, {
        own: { as: decided.as, since: dayAgo },
        onClaim: () => (claimed = true),
      });
      if (claimed)
        result.acts.push({
          work_id: row.id,
          title: row.title,
          as: decided.as,
          ok: answer.ok,
          outcome: answer.outcome,
          activity_id: answer.activity_id,
        });
    } catch (err) {
      // A row deleted (or a grant withdrawn) since the pass read it is simply skipped.
      if (err instanceof DeskError && (err.code === 'not_found' || err.code === 'not_permitted')) {
        if (!(await findDesk(ctx.db, desk.id))) return done('gone');
        continue;
      }
      result.faults.push({ work_id: row.id, error: err instanceof Error ? err.message : String(err) });
    }
    if (claimed && --left <= 0) return done('cap_reached');
  }
  return done('acted');
}

/** The rows in reach by date in each granted class, and the rows a chase may be due on; each once, in queue order. */
async function candidates(ctx: DeskContext, actWithinDays: number, today: string): Promise<WorkRow[]> {
  const grants = await grantsOf(ctx.db, ctx.desk.id);
  const horizon = addDays(today, actWithinDays);
  const found = new Map<number, WorkRow>();
  for (const cls of grants) {
    if ((UNGRANTABLE as readonly string[]).includes(cls)) continue;
    for (const r of await rowsInReach(ctx.db, ctx.desk.id, cls, horizon)) found.set(r.id, r);
  }
  if (grants.has('chase')) {
    // Chase intervals are at least a day, so nothing out since today can be due.
    for (const r of await rowsWaitingSince(ctx.db, ctx.desk.id, today)) found.set(r.id, r);
  }
  return [...found.values()].sort(
    (a, b) => b.priority - a.priority || a.due_key.localeCompare(b.due_key) || a.id - b.id,
  );
}
