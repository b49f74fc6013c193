import { messagesOfRows, playbooksOf, workAfter } from '../../store/repositories/business.ts';
import type { WorkRow } from '../../store/schema.ts';
import { letOthersIn } from '../turn.ts';
import { connectionSettingsOf } from '../../store/repositories/connections.ts';
import { arrangementsOf, unitsOf, watchesOf } from '../../store/repositories/desk-reads.ts';
import { grantsOf } from '../../store/repositories/desks.ts';
import { domainsOf } from '../../store/repositories/domains.ts';
import { sectionsOf } from '../../store/repositories/sections.ts';
import { actorName, type DeskContext } from '../context.ts';
import { logEvent } from '../record.ts';
import { dateIn, isIsoDate } from '../dates.ts';
import { isFinished, MESSAGE_STATUSES, PERMISSION_CLASSES, UNGRANTABLE } from '../vocab.ts';
import { withoutSecrets } from '../secret-settings.ts';
import { lineWrittenOut, plural, storedObject } from '../text.ts';
import { writeYaml } from './yaml.ts';

// The desk as a business file (docs/business-file.md) that `desk import` reads back into an
// equal desk. Dates are written absolute, so the file means the same on any later day. What
// must never leave the desk stays out: secrets in connection settings, and API keys, which
// are not part of the format at all.

export interface ExportedFile {
  text: string;
  /** A name for the file when it is saved: the desk's slug and today's date. */
  filename: string;
  /** The connections whose secrets were left out, each with the settings' names. */
  secretsLeftOut: string[];
}

/** YAML opens with a comment naming what was left out; JSON has no comments, so its caller says it. */
export type FileFormat = 'yaml' | 'json';

type Entry = Record<string, unknown>;

/** Drops null fields: the reader takes an absent field and a null one alike. */
function compact(e: Entry): Entry {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null && v !== undefined));
}

/** A stored timestamp as the desk's calendar date; a date stays as it is. */
function deskDate(value: string | null, timezone: string): string | null {
  if (value === null || isIsoDate(value)) return value;
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? null : dateIn(timezone, t);
}

function parsedList(json: string): unknown[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** Rows read, and written out, at a time, with the process's other work let in between. */
const PAGE = 1000;

/** Each line but the empty ones moved right by `by`: a list written alone, put under its key. */
function indented(text: string, by: string): string {
  // Split on \n alone: a regular expression's ^ would also start a line after a U+2028 in a value.
  return text
    .split('\n')
    .map((line) => (line === '' ? line : by + line))
    .join('\n');
}

/** The file as YAML with `work` last, as one writing of the whole would give it, written a page at a time. */
async function yamlWithWork(doc: Entry, work: Entry[]): Promise<string> {
  if (work.length === 0) return writeYaml({ ...doc, work });
  // A document whose last value keeps its trailing line breaks (`|+`) is closed with "...": of
  // the pieces, only the last one's is the file's, and it stands at the margin.
  let closed = false;
  const piece = (text: string) => {
    closed = text.endsWith('\n...\n');
    return closed ? text.slice(0, -'...\n'.length) : text;
  };
  const parts = [piece(writeYaml(doc)), 'work:\n'];
  for (let i = 0; i < work.length; i += PAGE) {
    if (i > 0) await letOthersIn();
    parts.push(indented(piece(writeYaml(work.slice(i, i + PAGE))), '  '));
  }
  if (closed) parts.push('...\n');
  return parts.join('');
}

/** The file as JSON with `work` last, as JSON.stringify of the whole would give it, a page at a time. */
async function jsonWithWork(doc: Entry, work: Entry[]): Promise<string> {
  const head = JSON.stringify({ ...doc, work: [] }, null, 2);
  if (work.length === 0) return `${head}\n`;
  const parts = [`${head.slice(0, -'[]\n}'.length)}[\n`];
  for (let i = 0; i < work.length; i += PAGE) {
    if (i > 0) await letOthersIn();
    const page = work.slice(i, i + PAGE).map((e) => indented(JSON.stringify(e, null, 2), '    '));
    parts.push(`${i > 0 ? ',\n' : ''}${page.join(',\n')}`);
  }
  parts.push('\n  ]\n}\n');
  return parts.join('');
}

/**
 * The desk as a business file. `deliver` hands the text over (writes the file, say) before the
 * export is logged, so an export that could not be delivered is not recorded as done.
 */
export async function exportDesk(
  ctx: DeskContext,
  format: FileFormat = 'yaml',
  deliver: (text: string) => void | Promise<void> = () => {},
  /** Told once the desk is read, before the file is written: what a large desk's wait is for. */
  read?: (counts: { work: number; messages: number }) => void,
  /** False for a file only asked about (HTTP HEAD), which nobody takes away: nothing is logged. */
  record = true,
): Promise<ExportedFile> {
  const { db, desk } = ctx;
  const deskId = desk.id;
  // The rows and their messages are read a page at a time, letting other work in between: a
  // desk of 100,000 rows read in one statement held every other request for seconds.
  const workEntry = (w: WorkRow, finished: ReadonlySet<number>, messagesOf: ReadonlyMap<number, Entry[]>) =>
    compact({
      title: w.title,
      detail: w.detail,
      kind: w.kind,
      status: w.status,
      due: w.due_date,
      priority: w.priority,
      class: w.class,
      needs_person: w.needs_person === 1,
      chase_after_days: w.chase_after_days,
      max_chases: w.max_chases,
      chases: w.chases > 0 ? w.chases : null,
      contact_name: w.contact_name,
      contact_email: w.contact_email,
      waiting_on: w.waiting_on,
      waiting_since: w.waiting_on ? deskDate(w.waiting_since, desk.timezone) : null,
      replied_by: w.replied_at && !finished.has(w.id) ? w.replied_by : null,
      replied_at: w.replied_at && !finished.has(w.id) ? deskDate(w.replied_at, desk.timezone) : null,
      closed_at: w.status === 'done' || w.status === 'closed' ? deskDate(w.closed_at, desk.timezone) : null,
      last_error: w.last_error,
      // Named once the desk's other entries are read, after the rows (below).
      arrangement: w.arrangement_id,
      unit: w.unit_id,
      playbook: w.playbook_id,
      messages: messagesOf.get(w.id) ?? null,
    });
  const work: Entry[] = [];
  let messageCount = 0;
  for (let after = 0; ; ) {
    const rows = await workAfter(db, deskId, after, PAGE);
    if (rows.length === 0) break;
    const messages = await messagesOfRows(db, deskId, rows[0]!.id, rows.at(-1)!.id);
    messageCount += messages.length;
    const finished = new Set(rows.filter((w) => isFinished(w.status)).map((w) => w.id));
    const messagesOf = new Map<number, Entry[]>();
    for (const m of messages) {
      // The format carries the desk's own messages: drafted, approved or sent.
      if (m.direction !== 'outbound' || !(MESSAGE_STATUSES as readonly string[]).includes(m.status)) continue;
      if (m.obligation_id === null || m.body.trim() === '') continue;
      // A finished row's message still to go was withdrawn when it finished (one finished before
      // closing withdrew it still holds it), and the file takes none.
      if (m.status !== 'sent' && finished.has(m.obligation_id)) continue;
      const list = messagesOf.get(m.obligation_id) ?? [];
      list.push(
        compact({
          status: m.status,
          channel: m.channel,
          subject: m.subject,
          body: m.body,
          to: m.to_address,
          actor: m.actor,
          sent_at: m.status === 'sent' ? deskDate(m.sent_at, desk.timezone) : null,
        }),
      );
      messagesOf.set(m.obligation_id, list);
    }
    for (const w of rows) work.push(workEntry(w, finished, messagesOf));
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.id;
    await letOthersIn();
  }
  read?.({ work: work.length, messages: messageCount });

  // Read after the rows, so that what a row names was there when it was read: an arrangement
  // added while a large desk's rows were read, with a row on it, is in the file with the row.
  const [granted, connections, sections, units, arrangements, watches, domains, playbooks] = await Promise.all([
    grantsOf(db, deskId),
    connectionSettingsOf(db, deskId),
    sectionsOf(db, deskId),
    unitsOf(db, deskId),
    arrangementsOf(db, deskId),
    watchesOf(db, deskId),
    domainsOf(db, deskId),
    playbooksOf(db, deskId),
  ]);

  // Refs are numbered in file order, so exporting an imported desk gives the same file.
  const connectionRef = new Map(connections.map((c, i) => [c.id, `connection-${i + 1}`]));
  const arrangementRef = new Map(arrangements.map((a, i) => [a.id, `arrangement-${i + 1}`]));
  const unitRef = new Map(units.map((u, i) => [u.id, `unit-${i + 1}`]));
  const playbookName = new Map(playbooks.map((p) => [p.id, p.name]));
  const ref = (map: Map<number, string>, id: number | null) => (id === null ? null : (map.get(id) ?? null));

  const leftOut: string[] = [];
  const connectionEntries = connections.map((c) => {
    const { kept, dropped } = withoutSecrets(storedObject(c.config));
    if (dropped.length) leftOut.push(`"${c.name}" (${dropped.join(', ')})`);
    return {
      ref: connectionRef.get(c.id),
      provider: c.provider,
      name: c.name,
      category: c.category,
      auth_type: c.auth_type,
      status: c.status,
      config: kept,
    };
  });

  // Each row's arrangement, unit and playbook by the name the file gives them, in their place.
  for (const e of work)
    for (const [field, names] of [
      ['arrangement', arrangementRef],
      ['unit', unitRef],
      ['playbook', playbookName],
    ] as const) {
      const id = e[field];
      if (id === undefined) continue;
      const name = names.get(id as number);
      if (name === undefined) delete e[field];
      else e[field] = name;
    }

  const doc = {
    desk: compact({
      name: desk.name,
      slug: desk.slug,
      plan: desk.plan,
      timezone: desk.timezone,
      currency: desk.currency,
      broker: desk.broker,
      hours: desk.hours,
      daily_cap: desk.daily_cap,
      act_within_days: desk.act_within_days,
      paused: desk.paused === 1,
    }),
    grants: PERMISSION_CLASSES.filter((c) => granted.has(c) && !(UNGRANTABLE as readonly string[]).includes(c)),
    connections: connectionEntries,
    sections: sections.map((s) =>
      compact({
        id: s.id,
        title: s.title,
        blurb: s.blurb,
        kind: s.kind,
        kinds: parsedList(s.kinds),
        unit: s.unit,
        fields: parsedList(s.fields),
        why: s.why,
      }),
    ),
    units: units.map((u) =>
      compact({
        ref: unitRef.get(u.id),
        type: u.type,
        name: u.name,
        fields: storedObject(u.fields),
        arrangement: ref(arrangementRef, u.arrangement_id),
      }),
    ),
    arrangements: arrangements.map((a) => {
      const { id, ...rest } = a;
      // The reader takes a currency only beside an amount.
      return compact({ ref: arrangementRef.get(id), ...rest, currency: a.amount_cents === null ? null : a.currency });
    }),
    watches: watches.map((w) => {
      const { id: _id, ...rest } = w;
      return compact(rest);
    }),
    domains: domains.map((d) => {
      const { id: _id, ...rest } = d;
      return compact(rest);
    }),
    playbooks: playbooks.map((p) =>
      compact({ name: p.name, connection: ref(connectionRef, p.connection_id), steps: parsedList(p.steps) }),
    ),
  };

  const today = ctx.today();
  const header = [
    `Business file of the desk "${desk.name}" (${desk.slug}), written on ${today} (${desk.timezone}).`,
    '`desk import FILE` reads it into a new desk; dates are as they stood that day.',
    leftOut.length
      ? `Secrets were left out: ${leftOut.join('; ')}. Enter them again on the desk after importing.`
      : 'Secrets (connection passwords and the like) are never written here.',
    'API keys are not part of a business file; make new ones on the desk that reads it.',
  ];
  // A name with a line break in it must not end the comment and start YAML of its own, and the
  // comment is prose a terminal shows: nothing in it may steer one (P-cli-11).
  const text =
    format === 'json'
      ? await jsonWithWork(doc, work)
      : `${header.map((l) => `# ${lineWrittenOut(l)}`).join('\n')}\n${await yamlWithWork(doc, work)}`;
  await deliver(text);
  // Taking the business's data away is an owner action like any other, so the log says who did it.
  if (record)
    await logEvent(
      ctx,
      'desk_exported',
      `The desk was written out as a business file (${plural(work.length, 'work item')}).`,
      {
        by: actorName(ctx.actor),
        work: work.length,
        secrets_left_out: leftOut.length,
      },
    );
  return { text, filename: `${desk.slug}-${today}.${format}`, secretsLeftOut: leftOut };
}
