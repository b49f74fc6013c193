import { isForeignKeyViolation, isUniqueViolation } from '../../store/dialect.ts';
import { insertWork } from '../../store/repositories/work.ts';
import type { ArrangementRow, UnitRow, WatchRow } from '../../store/schema.ts';
import type { DeskContext } from '../context.ts';
import { logEvent, logTimeline } from '../record.ts';
import { isPermissionClass } from '../vocab.ts';
import { atomically, lockNamed } from '../../store/tx.ts';
import { dueOccurrence, everyDays, madeOccurrences, watchedDate, watchTitle } from './schedule.ts';
import { plural } from '../text.ts';
import { unitRowsOfTypes, watchRowsOf } from '../../store/repositories/desk-reads.ts';
import { arrangementContacts, findUnit } from '../../store/repositories/rows.ts';
import { watchMadeRows, watchMadeRowsOfUnit } from '../../store/repositories/work.ts';

// Turns one desk's watched dates into work. For every watch and every unit of its subject
// type whose field holds a date D, once the desk's today >= D - lead_days exactly one row
// exists for (watch, unit, D). The unique index work_watch_once makes a second row
// impossible even when two processes run this at the same moment: the loser's insert is
// refused, its transaction rolls back, and it carries on.

export interface WatchCreated {
  desk_id: string;
  work_id: number;
  watch_id: number;
  unit_id: number;
  watch_date: string;
  title: string;
}

type Contact = Pick<ArrangementRow, 'id' | 'contact_name' | 'contact_email'>;

export async function applyWatches(ctx: DeskContext): Promise<WatchCreated[]> {
  const deskId = ctx.desk.id;
  const watches = await watchRowsOf(ctx.db, deskId);
  if (watches.length === 0) return [];

  const types = [...new Set(watches.map((w) => w.subject_type))];
  const units = await unitRowsOfTypes(ctx.db, deskId, types);
  if (units.length === 0) return [];

  const madeFor = madeOccurrences(await watchMadeRows(ctx.db, deskId));

  const arrangementIds = [...new Set(units.map((u) => u.arrangement_id).filter((id): id is number => id !== null))];
  const contacts = new Map<number, Contact>();
  if (arrangementIds.length > 0) {
    const arr = await arrangementContacts(ctx.db, deskId, arrangementIds);
    for (const a of arr) contacts.set(a.id, a);
  }

  const today = ctx.today();
  const created: WatchCreated[] = [];
  for (const watch of watches) {
    const every = everyDays(watch.every);
    for (const unit of units) {
      if (unit.type !== watch.subject_type) continue;
      const date = watchedDate(unit.fields, watch.field);
      if (date === null) continue;
      const due = dueOccurrence({
        date,
        every,
        leadDays: watch.lead_days,
        today,
        made: madeFor(watch, unit.id),
      });
      if (due === null) continue;
      const contact = unit.arrangement_id === null ? undefined : contacts.get(unit.arrangement_id);
      const row = await createOccurrence(ctx, watch, unit, due, { every, today }, contact);
      if (row) created.push(row);
    }
  }
  return created;
}

/** Inserts the row for (watch, unit, date) with its event and timeline entry, or nothing when it already exists. */
async function createOccurrence(
  ctx: DeskContext,
  watch: WatchRow,
  unit: UnitRow,
  date: string,
  { every, today }: { every: number | null; today: string },
  contact: Contact | undefined,
): Promise<WatchCreated | null> {
  const title = watchTitle(watch, unit);
  const now = ctx.now();
  const lead = plural(watch.lead_days, 'day');
  const detail = `${unit.name}: ${watch.field} is ${date}. The desk starts ${lead} ahead.${every ? ` It comes round every ${plural(every, 'day')}.` : ''}`;
  try {
    return await atomically(ctx, async (tx) => {
      // Two passes at once (two servers, or `desk watches run` beside one) each read the unit
      // and its rows before either wrote; the unique index stops a second row for one date only.
      // Under the unit's lock the unit's date and rows are read again, so the second makes
      // nothing once the first has made a row for the unit, whichever date it was for.
      await lockNamed(tx, `watched-unit:${unit.id}`);
      const fresh = await findUnit(tx.db, tx.desk.id, unit.id);
      const watched = fresh ? watchedDate(fresh.fields, watch.field) : null;
      const made = madeOccurrences(await watchMadeRowsOfUnit(tx.db, tx.desk.id, unit.id));
      if (
        watched === null ||
        dueOccurrence({ date: watched, every, leadDays: watch.lead_days, today, made: made(watch, unit.id) }) !== date
      )
        return null;
      const row = await insertWork(tx.db, {
        desk_id: ctx.desk.id,
        title,
        detail,
        kind: watch.kind,
        status: 'open',
        due_date: date,
        priority: Math.min(100, Math.max(1, Math.round(watch.priority))),
        class: isPermissionClass(watch.action) ? watch.action : null,
        needs_person: 0,
        chase_after_days: 7,
        contact_name: contact?.contact_name ?? null,
        contact_email: contact?.contact_email ?? null,
        waiting_on: null,
        waiting_since: null,
        last_error: null,
        arrangement_id: unit.arrangement_id,
        unit_id: unit.id,
        playbook_id: null,
        watch_id: watch.id,
        watch_date: date,
        created_at: now,
        updated_at: now,
        closed_at: null,
      });
      await logEvent(
        tx,
        'work_created',
        `Opened "${title}", due ${date}: the ${watch.label} watch starts ${lead} ahead.`,
        {
          work_id: row.id,
          watch_id: watch.id,
          unit_id: unit.id,
          watch_date: date,
        },
      );
      await logTimeline(
        tx,
        row.id,
        'created',
        `The desk opened this row from the ${watch.label} watch: ${unit.name}'s ${watch.field} is ${date}.`,
      );
      return { desk_id: ctx.desk.id, work_id: row.id, watch_id: watch.id, unit_id: unit.id, watch_date: date, title };
    });
  } catch (err) {
    // Another pass (this process or another) made it first: exactly one row, which is the point.
    if (isUniqueViolation(err)) return null;
    // The unit or the watch was removed since the pass read it: there is nothing left to watch.
    if (isForeignKeyViolation(err)) return null;
    throw err;
  }
}
