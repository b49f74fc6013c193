import { openKinds, walkQueue, type QueueEntry, type QueueFilters } from '../../store/repositories/queue.ts';
import { findWorkMany } from '../../store/repositories/work.ts';
import type { DeskContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { clampLimit, filterText, positiveId } from '../input.ts';
import { isOpenStatus, OPEN_STATUSES } from '../vocab.ts';
import { cursorScope, decodeCursor, encodeCursor, secretFor } from './cursor.ts';
import type { WorkItem } from './derive.ts';
import { toItems } from './items.ts';
import { onDesk } from '../../store/repositories/desks.ts';
import { sameAnswer } from '../same-answer.ts';

// GET /work: the open queue, a page at a time (D17-D19). Order: overdue rows first
// (due_date before the desk's today), then priority desc, due date asc with no date last,
// id asc. That is two bands of the one index order, read one after the other: rows due
// before today, then the rest. A cursor carries the last position and the day the split was
// drawn on, so a walk reaches every open row exactly once, however long the queue.

export interface WorkQuery {
  limit?: unknown;
  cursor?: unknown;
  status?: unknown;
  kind?: unknown;
  arrangement?: unknown;
}

export interface WorkPage {
  items: WorkItem[];
  next_cursor: string | null;
  open_total: number;
}

export const STATUS_MESSAGE = `status must be one of ${OPEN_STATUSES.join(', ')}; /work lists open rows only.`;

/** D18: an unknown status is refused, naming the allowed values. Absent means every open status. */
export function parseStatus(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !(OPEN_STATUSES as readonly string[]).includes(raw))
    throw badRequest(STATUS_MESSAGE, { allowed: [...OPEN_STATUSES] });
  return raw;
}

/** The overdue band sorts before everything else; the empty string sorts before every date. */
const OVERDUE_FROM = '';

/**
 * A page is a function of the stored rows, the query and the desk's today alone, so while the
 * store is unchanged the same page is answered from memory (P-speed-5).
 */
const scopeOf = (ctx: DeskContext, f: QueueFilters) =>
  cursorScope(ctx.desk.id, [f.status ?? null, f.kind ?? null, f.arrangementId ?? null]);

/**
 * Whether the query's cursor is one a page of this same query gave: only then is its page a
 * later one. Any other cursor starts again at the first page (D19), and the screen says so.
 */
export async function isLaterPage(ctx: DeskContext, query: WorkQuery): Promise<boolean> {
  if (query.cursor === undefined) return false;
  const filters: QueueFilters = { status: parseStatus(query.status) };
  if (query.kind !== undefined) filters.kind = filterText(query.kind) ?? '';
  if (query.arrangement !== undefined) filters.arrangementId = positiveId(query.arrangement) ?? 0;
  return decodeCursor(await secretFor(ctx), scopeOf(ctx, filters), query.cursor) !== null;
}

/** Every kind the desk's open rows have, for a filter that can reach each of them. */
export function kindsOpen(ctx: DeskContext): Promise<string[]> {
  return openKinds(ctx.db, ctx.desk.id);
}

export async function listWork(ctx: DeskContext, query: WorkQuery = {}): Promise<WorkPage> {
  const status = parseStatus(query.status);
  const limit = clampLimit(query.limit);
  const asked = [status ?? null, limit, query.kind ?? null, query.arrangement ?? null, query.cursor ?? null];
  return sameAnswer(ctx, 'work page', asked, () => readPage(ctx, query, status, limit));
}

async function readPage(
  ctx: DeskContext,
  query: WorkQuery,
  status: string | undefined,
  limit: number,
): Promise<WorkPage> {
  const open_total = ctx.desk.open_count;

  // D18: a kind or arrangement that names nothing gives an empty page, not an error.
  const filters: QueueFilters = { status };
  if (query.kind !== undefined) {
    const kind = filterText(query.kind);
    if (kind === null) return { items: [], next_cursor: null, open_total };
    filters.kind = kind;
  }
  if (query.arrangement !== undefined) {
    const id = positiveId(query.arrangement);
    const mine = id !== null && (await onDesk(ctx.db, 'arrangements', ctx.desk.id, id));
    if (!mine) return { items: [], next_cursor: null, open_total };
    filters.arrangementId = id!;
  }

  const secret = await secretFor(ctx);
  const scope = scopeOf(ctx, filters);
  const at = query.cursor === undefined ? null : decodeCursor(secret, scope, query.cursor);
  const today = at?.today ?? ctx.today();

  // One row more than the page shows tells whether another page exists.
  const want = limit + 1;
  const found: Array<QueueEntry & { segment: 0 | 1 }> = [];
  if (!at || at.segment === 0) {
    const after = at ? { priority: at.priority, dueKey: at.dueKey, id: at.id } : null;
    for (const e of await walkQueue(ctx.db, ctx.desk.id, { from: OVERDUE_FROM, below: today }, after, filters, want))
      found.push({ ...e, segment: 0 });
  }
  if (found.length < want) {
    const after = at?.segment === 1 ? { priority: at.priority, dueKey: at.dueKey, id: at.id } : null;
    for (const e of await walkQueue(ctx.db, ctx.desk.id, { from: today }, after, filters, want - found.length))
      found.push({ ...e, segment: 1 });
  }

  const page = found.slice(0, limit);
  let next_cursor: string | null = null;
  if (found.length > limit) {
    const last = page[page.length - 1]!;
    next_cursor = encodeCursor(secret, scope, {
      today,
      segment: last.segment,
      priority: last.priority,
      dueKey: last.dueKey,
      id: last.id,
    });
  }
  // Read after the walk, so a row finished in between is left out rather than listed as done.
  const rows = (
    await findWorkMany(
      ctx.db,
      ctx.desk.id,
      page.map((e) => e.id),
    )
  ).filter((r) => isOpenStatus(r.status));
  return { items: await toItems(ctx, rows), next_cursor, open_total };
}
