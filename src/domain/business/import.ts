import { addDays, DAY_MS, dateIn, midnightIn } from '../dates.ts';
import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../../store/schema.ts';
import { addEvent, addTimelineMany } from '../../store/repositories/events.ts';
import { insertWorkMany } from '../../store/repositories/work.ts';
import { atomicallyOn } from '../../store/tx.ts';
import { createDesk } from '../desks/manage.ts';
import { createKey, type CreatedKey } from '../keys/create.ts';
import { setGrant } from '../grants/manage.ts';
import { planFromText, type BusinessPlan, type MessagePlan, type WatchPlan, type WorkPlan } from './read.ts';
import { madeByWatch, watchTitle } from '../watches/schedule.ts';
import { letOthersIn } from '../turn.ts';
import { insertActivityMany, type NewActivity } from '../../store/repositories/activity.ts';
import { plural } from '../text.ts';
import {
  insertArrangement,
  insertConnection,
  insertDomain,
  insertPlaybook,
  insertUnit,
  insertWatch,
} from '../../store/repositories/records.ts';
import { insertSection } from '../../store/repositories/sections.ts';

// `desk import FILE`: a business file becomes a new desk in one transaction, so a file that
// fails anywhere writes nothing. Refs in the file come back with the ids they became.

export interface ImportResult {
  desk: { id: string; slug: string; name: string };
  key: CreatedKey | null;
  refs: Record<string, number>;
  counts: {
    work: number;
    arrangements: number;
    units: number;
    watches: number;
    domains: number;
    connections: number;
    sections: number;
    playbooks: number;
  };
}

export async function importBusinessText(
  db: Kysely<Database>,
  text: string,
  opts: { now: Date; keyName?: string; source?: string; slug?: string },
): Promise<ImportResult> {
  return importBusiness(db, planFromText(text, opts), opts);
}

/** Told how far a long import has come: work items written so far, of how many. */
export type ImportProgress = (done: number, total: number) => void;

/** A file of fewer work items than this imports without a word on the way. */
export const PROGRESS_FROM = 1_000;

/** Rows a statement of an import writes at most: far inside either database's limit on parameters. */
const STATEMENT_ROWS = 500;

export async function importBusiness(
  db: Kysely<Database>,
  plan: BusinessPlan,
  opts: { now: Date; keyName?: string; progress?: ImportProgress },
): Promise<ImportResult> {
  const now = opts.now.toISOString();
  return atomicallyOn(db, async (trx) => {
    const desk = await createDesk(trx, plan.desk, now);
    const { refs, counts } = await fillDesk(trx, desk, plan, { now, by: 'import', progress: opts.progress });
    const key = opts.keyName ? await createKey(trx, { deskId: desk.id, name: opts.keyName, now, by: 'import' }) : null;
    return { desk: summary(desk), key, refs, counts };
  });
}

export interface Filled {
  refs: Record<string, number>;
  counts: ImportResult['counts'];
}

/**
 * Writes everything a read file holds onto a desk that has none of it yet, with the
 * `desk_imported` event naming who brought it in. The caller holds the transaction.
 */
export async function fillDesk(
  trx: Kysely<Database>,
  desk: DeskRow,
  plan: BusinessPlan,
  opts: { now: string; by: string; progress?: ImportProgress },
): Promise<Filled> {
  const now = opts.now;
  const total = plan.work.length;
  // About every tenth of a large file, and never more often than every 1,000 rows.
  const step = Math.max(PROGRESS_FROM, Math.ceil(total / 10));
  // Any text is a ref, `__proto__` too: an object of no prototype keeps each as its own entry.
  const refs: Record<string, number> = Object.create(null);
  const ids: Ids = {
    connection: new Map<string, number>(),
    arrangement: new Map<string, number>(),
    unit: new Map<string, number>(),
    playbook: new Map<string, number>(),
  };
  const remember = (kind: keyof Ids, ref: string | null, id: number) => {
    if (ref === null) return;
    ids[kind].set(ref, id);
    refs[ref] = id;
  };

  for (const cls of plan.grants) await setGrant(trx, { deskId: desk.id, cls, granted: true, now, by: opts.by });

  for (const c of plan.connections) {
    const id = await insertConnection(trx, {
      desk_id: desk.id,
      provider: c.provider,
      name: c.name,
      category: c.category,
      auth_type: c.auth_type,
      status: c.status,
      config: JSON.stringify(c.config),
      created_at: now,
    });
    remember('connection', c.ref, id);
  }

  for (const [position, s] of plan.sections.entries()) {
    await insertSection(trx, {
      desk_id: desk.id,
      id: s.id,
      position,
      title: s.title,
      blurb: s.blurb,
      kind: s.kind,
      kinds: JSON.stringify(s.kinds),
      unit: s.unit,
      fields: JSON.stringify(s.fields),
      why: s.why,
      created_at: now,
    });
  }

  for (const a of plan.arrangements) {
    const { ref, ...values } = a;
    remember('arrangement', ref, await insertArrangement(trx, { ...values, desk_id: desk.id, created_at: now }));
  }

  for (const [position, u] of plan.units.entries()) {
    const id = await insertUnit(trx, {
      desk_id: desk.id,
      type: u.type,
      name: u.name,
      fields: JSON.stringify(u.fields),
      arrangement_id: u.arrangement ? ids.arrangement.get(u.arrangement)! : null,
      position,
    });
    remember('unit', u.ref, id);
  }

  const watches: Array<WatchPlan & { id: number }> = [];
  for (const w of plan.watches) watches.push({ ...w, id: await insertWatch(trx, { ...w, desk_id: desk.id }) });
  // A row a watch made comes back a plain row in the file; told by its unit, kind and date (or
  // title), it is the watch's again, so the watch does not make a second row for its date. One
  // row for each watch, unit and date: of the rows that could be it, the one titled as the watch
  // titles its rows, else the first (a row the owner added beside the watch's own stays theirs).
  const units = new Map(plan.units.map((u) => [u.ref, { ...u, fields: JSON.stringify(u.fields) }]));
  const watchRow = new Map<string, { row: WorkPlan; titled: boolean; link: WatchLink }>();
  for (const w of plan.work) {
    const unit = (w.unit && units.get(w.unit)) || null;
    const watch = madeByWatch(w, unit, watches);
    if (!watch || !unit || w.due_date === null) continue;
    const key = JSON.stringify([watch.id, w.unit, w.due_date]);
    const titled = watchTitle(watch, unit) === w.title;
    const held = watchRow.get(key);
    if (!held || (titled && !held.titled))
      watchRow.set(key, { row: w, titled, link: { watch_id: watch.id, watch_date: w.due_date } });
  }
  const linked = new Map([...watchRow.values()].map((r) => [r.row, r.link]));
  const watchOf = (w: WorkPlan): WatchLink | null => linked.get(w) ?? null;
  for (const d of plan.domains) await insertDomain(trx, { ...d, desk_id: desk.id });

  for (const p of plan.playbooks) {
    ids.playbook.set(
      p.name,
      await insertPlaybook(trx, {
        desk_id: desk.id,
        name: p.name,
        connection_id: p.connection ? ids.connection.get(p.connection)! : null,
        steps: JSON.stringify(p.steps),
      }),
    );
  }

  // Work items go in batches of `step`, each a few statements of STATEMENT_ROWS rows for the
  // rows, their ids, their messages and their timeline, rather than several statements a row.
  // The stored open counts move once a batch, so a file of 100,000 rows rewrites them ten times,
  // not 100,000 times.
  for (let start = 0; start < total; start += step) {
    const batch = plan.work.slice(start, start + step);
    const rows = batch.map((w) => workRow(w, desk, ids, now, watchOf(w)));
    const made = await insertWorkMany(trx, rows, STATEMENT_ROWS);
    const messages: NewActivity[] = [];
    batch.forEach((w, i) => {
      const workId = made[i]!;
      if (w.ref) refs[w.ref] = workId;
      for (const m of w.messages) messages.push(messageOf(m, desk, workId, rows[i]!.arrangement_id, now));
    });
    await insertActivityMany(trx, messages, STATEMENT_ROWS);
    await addTimelineMany(
      trx,
      made.map((workId) => ({
        deskId: desk.id,
        workId,
        kind: 'imported',
        text: 'Brought in from the business file.',
        at: now,
      })),
    );
    const written = start + batch.length;
    if (opts.progress && written < total) opts.progress(written, total);
    // A turn of the event loop between batches, so that a stop (Ctrl-C) is heard during a long
    // import rather than after it: SQLite's statements never give the loop one.
    await letOthersIn();
  }

  await addEvent(trx, {
    deskId: desk.id,
    kind: 'desk_imported',
    message: `Desk "${desk.name}" set up from a business file with ${plural(plan.work.length, 'work item')}.`,
    data: { work: plan.work.length, by: opts.by },
    at: now,
  });
  return {
    refs,
    counts: {
      work: plan.work.length,
      arrangements: plan.arrangements.length,
      units: plan.units.length,
      watches: plan.watches.length,
      domains: plan.domains.length,
      connections: plan.connections.length,
      sections: plan.sections.length,
      playbooks: plan.playbooks.length,
    },
  };
}

type Ids = Record<'connection' | 'arrangement' | 'unit' | 'playbook', Map<string, number>>;

/** A work item of the file as the row it becomes; every row names the same columns. */
type WatchLink = { watch_id: number; watch_date: string };

function workRow(w: WorkPlan, desk: { id: string; timezone: string }, ids: Ids, now: string, made: WatchLink | null) {
  const finished = w.status === 'done' || w.status === 'closed';
  // A reply to read came on a day of the desk's calendar: stored as that day's first moment there.
  const replied = !finished && (w.replied_by !== null || w.replied_at !== null);
  return {
    desk_id: desk.id,
    title: w.title,
    detail: w.detail,
    kind: w.kind,
    status: w.status,
    due_date: w.due_date,
    priority: w.priority,
    class: w.class,
    needs_person: w.needs_person ? 1 : 0,
    chase_after_days: w.chase_after_days,
    max_chases: w.max_chases,
    chases: w.chases,
    contact_name: w.contact_name,
    contact_email: w.contact_email,
    waiting_on: w.waiting_on,
    waiting_since: w.waiting_on ? (w.waiting_since ?? now) : null,
    replied_by: replied ? w.replied_by : null,
    replied_at: replied ? (w.replied_at ? midnightIn(desk.timezone, w.replied_at).toISOString() : now) : null,
    last_error: w.last_error,
    arrangement_id: w.arrangement ? ids.arrangement.get(w.arrangement)! : null,
    unit_id: w.unit ? ids.unit.get(w.unit)! : null,
    playbook_id: w.playbook ? ids.playbook.get(w.playbook)! : null,
    watch_id: made?.watch_id ?? null,
    watch_date: made?.watch_date ?? null,
    created_at: now,
    updated_at: now,
    // A row finished before the desk knew it has no day unless the file gives one, so an import
    // does not count its history as closed today.
    closed_at: finished && w.closed_at ? midnightIn(desk.timezone, w.closed_at).toISOString() : null,
  };
}

/** A message of the file on the row it came with. */
function messageOf(
  m: MessagePlan,
  desk: { id: string; timezone: string },
  workId: number,
  arrangementId: number | null,
  now: string,
): NewActivity {
  return {
    deskId: desk.id,
    kind: 'message',
    workId,
    arrangementId,
    channel: m.channel,
    direction: 'outbound',
    subject: m.subject,
    body: m.body,
    to: m.to,
    status: m.status,
    actor: m.actor,
    at: now,
    sentAt: m.status === 'sent' ? sentAt(m.sent_at, desk.timezone, now) : null,
    approvedAt: m.status === 'drafted' ? null : now,
    // An approved message came signed off and not sent by this desk; its reason says so, as a
    // refused send's does, so it is never taken for a send some call has under way (P-writes-12).
    failureReason: m.status === 'approved' ? IMPORTED_UNSENT : null,
  };
}

/**
 * When a sent message went: the first moment of the day the file gives, but the import's time
 * for a message sent today or on no day given, and the day's last moment for one whose day
 * ended within the last 24 hours, so that the desk does not write to the same address again
 * within 24 hours (the rail) on a guess: a file gives the day, not the hour.
 */
function sentAt(day: string | null, timezone: string, now: string): string {
  if (day === null || day >= dateIn(timezone, new Date(now))) return now;
  const ended = midnightIn(timezone, addDays(day, 1)).getTime() - 1;
  if (ended > Date.parse(now) - DAY_MS) return new Date(Math.min(ended, Date.parse(now))).toISOString();
  return midnightIn(timezone, day).toISOString();
}

/** Why a message the file brought in as approved has not gone: this desk never sent it. */
const IMPORTED_UNSENT = 'It came in approved with the business file; this desk has not sent it.';

function summary(desk: DeskRow) {
  return { id: desk.id, slug: desk.slug, name: desk.name };
}
