import { actedSince } from '../../store/repositories/pass.ts';
import { findDesk } from '../../store/repositories/desks.ts';
import type { DeskContext } from '../context.ts';
import { addDays, midnightIn } from '../dates.ts';
import { railsOf, type Rails } from '../desks/rails.ts';
import { notFound } from '../errors.ts';
import { isFinished } from '../vocab.ts';

// What the owner reads about the desk on its own: its rails, and the rows it acted on by
// itself today and over the last seven desk-days, newest first.

export interface OwnRow {
  id: number;
  title: string;
  status: string;
  at: string;
  waiting_on: string | null;
  chases: number;
  last_error: string | null;
}

export interface OwnRecord {
  rails: Rails;
  today: OwnRow[];
  week: OwnRow[];
}

export async function ownRecord(ctx: DeskContext): Promise<OwnRecord> {
  const desk = await findDesk(ctx.db, ctx.desk.id);
  if (!desk) throw notFound('desk', ctx.desk.id);
  const today = ctx.today();
  const dayStart = midnightIn(desk.timezone, today).toISOString();
  const weekStart = midnightIn(desk.timezone, addDays(today, -6)).toISOString();
  const rows = (await actedSince(ctx.db, desk.id, weekStart)).map((r) => ({
    id: r.id,
    title: r.title,
    status: r.status,
    at: r.desk_acted_at ?? '',
    waiting_on: r.waiting_on,
    chases: r.chases,
    // A row finished since needs no look (D10 rule 1): its fault is history, not a step.
    last_error: isFinished(r.status) ? null : r.last_error,
  }));
  return { rails: railsOf(desk), today: rows.filter((r) => r.at >= dayStart), week: rows };
}
