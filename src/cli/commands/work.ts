import { type Command, Option } from 'commander';
import { deskContext, type DeskContext, type Deps } from '../../domain/context.ts';
import { DeskError } from '../../domain/errors.ts';
import type { OwnerFields } from '../../domain/work/fields.ts';
import type { WorkItem } from '../../domain/work/derive.ts';
import { type Acted, nothingChanged } from '../../domain/work/acted.ts';
import type { WorkRow } from '../../store/schema.ts';
import { isFinished, OWNER, PERMISSION_CLASSES, WORK_STATUSES } from '../../domain/vocab.ts';
import { asSentence, plural } from '../../domain/text.ts';
import { minuteOfInstant } from '../../domain/dates.ts';
import { asFlags } from '../flags.ts';
import {
  checkedArgument,
  checkedOption,
  checkedTogether,
  idOf,
  neededOption,
  oneOf,
  storedId,
  type TypedId,
  wholeNumber,
} from '../checks.ts';
import { dbOption, jsonOption, ownerContext, print, table, withDeps, type DbOptions, type Io, inline } from '../io.ts';

// The owner's view of the queue (list, show) and actions on rows (add, edit, close, reopen,
// assign). Reading goes through the same verbs as the API; the actions are not API routes.

interface FieldOptions {
  title?: string;
  detail?: string;
  kind?: string;
  due?: string;
  priority?: string;
  class?: string;
  needsPerson?: boolean;
  chaseAfter?: string;
  maxChases?: string;
  contactName?: string;
  contactEmail?: string;
  waitingOn?: string;
  arrangement?: string;
  unit?: string;
}

/** The row's fields as flags; `creating` shows the defaults, which an edit does not apply. */
function fieldOptions(cmd: Command, creating: boolean): Command {
  const dflt = (text: string) => (creating ? ` (default ${text})` : '');
  return cmd
    .option('--title <text>', `what the work is${creating ? ' (required)' : ''}`)
    .option('--detail <text>', "the desk's own note on it")
    .option('--kind <kind>', `the desk's word for this sort of work${dflt('general')}`)
    .option('--due <date>', 'YYYY-MM-DD, today, +14d or -3d; "none" for no date')
    .option('--priority <1-100>', `higher is more urgent${dflt('50')}`)
    .option('--class <class>', `permission class: ${PERMISSION_CLASSES.join(', ')}, or none`)
    .addOption(new Option('--needs-person', 'only a person can do it (the desk prepares and stops)'))
    .addOption(new Option('--no-needs-person', 'the desk may work it again'))
    .option('--chase-after <days>', `chase once it has waited this many days${dflt('7')}`)
    .option('--max-chases <0-100>', `chases without an answer before a person follows it up${dflt('3')}`)
    .option('--contact-name <name>', 'who it goes to')
    .option('--contact-email <address>', 'where the desk writes')
    .option('--waiting-on <who>', 'who or what it is stopped on ("" for nobody)')
    .option('--arrangement <id>', 'the arrangement it belongs to ("" for none)')
    .option('--unit <id>', 'the unit it concerns ("" for none)');
}

function fields(o: FieldOptions): OwnerFields {
  const f: OwnerFields = {};
  if (o.title !== undefined) f.title = o.title;
  if (o.detail !== undefined) f.detail = o.detail;
  if (o.kind !== undefined) f.kind = o.kind;
  if (o.due !== undefined) f.due = o.due;
  if (o.priority !== undefined) f.priority = o.priority;
  if (o.class !== undefined) f.class = o.class;
  if (o.needsPerson !== undefined) f.needs_person = o.needsPerson;
  if (o.chaseAfter !== undefined) f.chase_after_days = o.chaseAfter;
  if (o.maxChases !== undefined) f.max_chases = o.maxChases;
  if (o.contactName !== undefined) f.contact_name = o.contactName;
  if (o.contactEmail !== undefined) f.contact_email = o.contactEmail;
  if (o.waitingOn !== undefined) f.waiting_on = o.waitingOn;
  if (o.arrangement !== undefined) f.arrangement_id = o.arrangement;
  if (o.unit !== undefined) f.unit_id = o.unit;
  return f;
}

/**
 * The owner sees every desk, so a row id alone finds its desk; --desk narrows it. A row not on
 * the desk named is refused here, naming that desk: the domain's own answer, written for the
 * API, says only "this desk". An id no row can have is missing like any other (P-cli-27).
 */
export async function contextForRow(
  deps: Deps,
  typed: TypedId,
  deskRef?: string,
): Promise<{ ctx: DeskContext; id: number }> {
  const { deskOfWork } = await import('../../store/repositories/work.ts');
  const id = storedId(typed);
  const deskId = id === null ? undefined : await deskOfWork(deps.store.db, id);
  if (deskRef) {
    const ctx = await ownerContext(deps, deskRef);
    if (id === null || deskId !== ctx.desk.id)
      throw new DeskError('not_found', `No work item ${typed} on the desk ${ctx.desk.slug}.`);
    return { ctx, id };
  }
  const { findDesk } = await import('../../store/repositories/desks.ts');
  const desk = deskId === undefined ? undefined : await findDesk(deps.store.db, deskId);
  if (id === null || !desk)
    throw new DeskError(
      'not_found',
      `No work item ${typed} in this database. \`desk work list --desk SLUG\` shows a desk's rows.`,
    );
  return { ctx: deskContext(deps, desk, { type: 'owner', name: OWNER }), id };
}

async function show(
  io: Io,
  ctx: DeskContext,
  row: WorkRow,
  json: boolean | undefined,
  sentence: string,
  outcome?: { changed: boolean; message: string },
): Promise<void> {
  const { toItem } = await import('../../domain/work/items.ts');
  const item = await toItem(ctx, row);
  print(
    io,
    json,
    { ...item, ...outcome },
    () =>
      `${sentence}\n  #${item.id} ${inline(item.title)} [${item.status}] due ${item.due_date ?? 'none'}, priority ${item.priority}; next: ${item.action ? `${item.action.label} (${item.action.type})` : 'nothing'}`,
  );
}

/**
 * What an action on a row did: the sentence it says, or, when what it asked already held, that
 * nothing was changed (exit 0, P-cli-28). With --json the row carries `changed` and `message`,
 * as complete's answer says the same in its `delivery_note`.
 */
async function acted(
  io: Io,
  ctx: DeskContext,
  a: Acted,
  json: boolean | undefined,
  did: string,
  /** Said after "nothing was changed" when the row still asks something of the owner. */
  still?: string | null,
): Promise<void> {
  const message =
    a.unchanged === null ? did : [nothingChanged(`#${a.row.id}`, a.unchanged), still].filter(Boolean).join(' ');
  await show(io, ctx, a.row, json, message, { changed: a.unchanged === null, message });
}

function line(i: WorkItem): Record<string, unknown> {
  return {
    id: i.id,
    due: i.due_date ?? '',
    pri: i.priority,
    status: i.status,
    next: i.action?.label ?? '',
    title: i.title,
  };
}

/** A received message's text under its line in `work show`: indented, and cut short past a screenful. */
function readable(body: string | null): string[] {
  const lines = (body ?? '').trimEnd().split(/\r?\n/);
  const shown = lines.slice(0, READ_LINES).map((l) => `    ${l}`);
  return lines.length > READ_LINES
    ? [...shown, `    … ${lines.length - READ_LINES} more lines (--json gives them all)`]
    : shown;
}
const READ_LINES = 20;

/** How many rows `work list --all` reads between the lines that say how far it has got. */
export const LIST_SAYS_EVERY = 10_000;

/** Returns the `work` command, so that the API's verbs (work-verbs.ts) join it. */
export function workCommands(program: Command, io: Io): Command {
  const work = program
    .command('work')
    .description(
      'The queue and the actions on work rows: list, show, snooze, draft, complete, add, edit, close, reopen, assign, and pass (the desk does what it may)',
    );

  const list = work
    .command('list')
    .description('The open queue in the order the API gives it: overdue first, then priority')
    .addOption(neededOption('--desk <desk>', 'desk id or slug'))
    .addOption(
      checkedOption(
        '--status <status>',
        'open, in_progress or waiting; done or closed lists finished rows, newest first',
        oneOf('--status', WORK_STATUSES),
      ),
    )
    .option('--kind <kind>', 'only this kind of work')
    .addOption(
      checkedOption('--limit <n>', 'rows to show (1-200)', wholeNumber('--limit', 1, 200), '50').conflicts('all'),
    )
    .option('--all', 'every open row, however many (with --status done or closed, the newest 10,000)');
  jsonOption(dbOption(list)).action(
    async (
      o: DbOptions & { desk: string; status?: string; kind?: string; limit: number; all?: boolean; json?: boolean },
    ) => {
      const { listFinished } = await import('../../domain/work/finished.ts');
      const { listWork } = await import('../../domain/work/list.ts');
      await withDeps(io, o, async (deps) => {
        const limit = o.limit;
        const ctx = await ownerContext(deps, o.desk);
        if (o.status === 'done' || o.status === 'closed') {
          const { items, more } = await listFinished(ctx, o.status, o.all ? 10_000 : limit, o.kind);
          print(io, o.json, { items, more }, () =>
            [
              table(items.map(line), ['id', 'due', 'pri', 'status', 'next', 'title']),
              more
                ? `The newest ${plural(items.length, 'row')} ${o.status}; there are more.${o.all ? '' : ' --all shows up to 10,000.'}`
                : `${plural(items.length, 'row')} ${o.status}.`,
            ].join('\n'),
          );
          return;
        }
        const query = { status: o.status, kind: o.kind, limit: o.all ? 200 : limit };
        let page = await listWork(ctx, query);
        const items = [...page.items];
        // Every row of a large desk takes seconds to read: said on standard error as it goes.
        const count = (n: number) => n.toLocaleString('en-GB');
        let said = 0;
        while (o.all && page.next_cursor) {
          page = await listWork(ctx, { ...query, cursor: page.next_cursor });
          items.push(...page.items);
          if (page.open_total >= LIST_SAYS_EVERY && items.length - said >= LIST_SAYS_EVERY && page.next_cursor) {
            said = items.length;
            io.err(`Reading: ${count(items.length)} of ${count(page.open_total)} open rows…`);
          }
        }
        print(io, o.json, { items, open_total: page.open_total, more: !o.all && page.next_cursor !== null }, () =>
          [
            table(items.map(line), ['id', 'due', 'pri', 'status', 'next', 'title']),
            `${items.length} shown of ${page.open_total} open.${!o.all && page.next_cursor ? ' --all shows every one.' : ''}`,
          ].join('\n'),
        );
      });
    },
  );

  const showCmd = work
    .command('show')
    .description('One row with its messages and its history')
    .addArgument(checkedArgument('<id>', 'work item id', idOf('work item')))
    .option('--desk <desk>', 'desk id or slug');
  jsonOption(dbOption(showCmd)).action(async (typed: TypedId, o: DbOptions & { desk?: string; json?: boolean }) => {
    const { attachmentsLine, getWork } = await import('../../domain/work/get.ts');
    const { findWork } = await import('../../store/repositories/work.ts');
    await withDeps(io, o, async (deps) => {
      const { ctx, id } = await contextForRow(deps, typed, o.desk);
      const d = await getWork(ctx, id);
      const w = d.work;
      const row = (await findWork(deps.store.db, ctx.desk.id, id))!;
      const people = { assignee: row.assignee, contact: { name: row.contact_name, email: row.contact_email } };
      print(io, o.json, { ...d, work: { ...w, ...people } }, () =>
        [
          `#${w.id} ${inline(w.title)} [${w.status}]${w.overdue && !isFinished(w.status) ? ' OVERDUE' : ''}`,
          `  kind ${w.kind}, priority ${w.priority}, due ${w.due_date ?? 'none'}, class ${w.permission ?? 'none'}${w.allowed ? ' (granted)' : ''}`,
          ...(row.assignee ? [`  assigned to ${row.assignee}`] : []),
          ...(row.contact_name || row.contact_email
            ? [
                `  contact ${[row.contact_name, row.contact_email && `<${row.contact_email}>`].filter(Boolean).join(' ')}`,
              ]
            : []),
          ...(w.waiting_on ? [`  waiting on ${w.waiting_on} for ${plural(w.days_waiting ?? 0, 'day')}`] : []),
          ...(w.last_error ? [`  last error: ${w.last_error}`] : []),
          `  next: ${w.action ? `${asSentence(w.action.label)} ${w.action.hint}` : 'nothing'}`,
          ...(w.detail ? ['', w.detail] : []),
          ...(d.messages.length
            ? [
                '',
                'Messages:',
                ...d.messages.flatMap((m) => [
                  // When it went, or was written, for a message that went; when it was made, for the rest.
                  `  ${minuteOfInstant(ctx.desk.timezone, m.sent_at ?? m.created_at)} ${m.status} ${m.channel} ${m.direction === 'inbound' ? `from ${m.actor}` : `to ${m.to ?? '-'}`}${m.subject ? `: ${m.subject}` : ''}`,
                  // A reply is read here: the owner decides what comes next from its words.
                  ...(m.direction === 'inbound' ? readable(m.body) : []),
                  ...(m.direction === 'inbound' && attachmentsLine(m.attachments) !== null
                    ? [`    ${inline(attachmentsLine(m.attachments)!)}`]
                    : []),
                ]),
              ]
            : []),
          ...(d.timeline.length
            ? ['', 'History:', ...d.timeline.map((t) => `  ${minuteOfInstant(ctx.desk.timezone, t.at)} ${t.text}`)]
            : []),
        ].join('\n'),
      );
    });
  });

  const add = fieldOptions(
    work
      .command('add')
      .description('Add a work row to a desk')
      .addOption(neededOption('--desk <desk>', 'desk id or slug')),
    true,
  );
  checkedTogether(add, (o) =>
    o.title === undefined ? 'work add needs --title, such as --title "Renew the alarm contract".' : null,
  );
  jsonOption(dbOption(add)).action(async (o: FieldOptions & DbOptions & { desk: string; json?: boolean }) => {
    const { addWork } = await import('../../domain/work/add.ts');
    await withDeps(io, o, async (deps) => {
      const ctx = await ownerContext(deps, o.desk);
      const row = await asFlags(() => addWork(ctx, fields(o)));
      await show(io, ctx, row, o.json, `Added #${row.id} to ${ctx.desk.slug}.`);
    });
  });

  const edit = fieldOptions(
    work
      .command('edit')
      .description('Change only the fields given (not its status)')
      .addArgument(checkedArgument('<id>', 'work item id', idOf('work item')))
      .option('--desk <desk>', 'desk id or slug'),
    false,
  ).option('--clear-error', 'mark the last failure as dealt with');
  jsonOption(dbOption(edit)).action(
    async (typed: TypedId, o: FieldOptions & DbOptions & { desk?: string; clearError?: boolean; json?: boolean }) => {
      const { editWork } = await import('../../domain/work/edit.ts');
      await withDeps(io, o, async (deps) => {
        const { ctx, id } = await contextForRow(deps, typed, o.desk);
        const a = await asFlags(() => editWork(ctx, id, { ...fields(o), clear_error: o.clearError }));
        await acted(io, ctx, a, o.json, `Updated #${id}.`);
      });
    },
  );

  const close = work
    .command('close')
    .description('Close a row: it leaves the queue')
    .addArgument(checkedArgument('<id>', 'work item id', idOf('work item')))
    .option('--desk <desk>', 'desk id or slug')
    .option('--note <text>', "appended to the row's detail");
  jsonOption(dbOption(close)).action(
    async (typed: TypedId, o: DbOptions & { desk?: string; note?: string; json?: boolean }) => {
      const { closeWork } = await import('../../domain/work/status.ts');
      await withDeps(io, o, async (deps) => {
        const { ctx, id } = await contextForRow(deps, typed, o.desk);
        await acted(io, ctx, await closeWork(ctx, id, { note: o.note }), o.json, `Closed #${id}.`);
      });
    },
  );

  const reopen = work
    .command('reopen')
    .description('Bring a done or closed row back to the queue')
    .addArgument(checkedArgument('<id>', 'work item id', idOf('work item')))
    .option('--desk <desk>', 'desk id or slug');
  jsonOption(dbOption(reopen)).action(async (typed: TypedId, o: DbOptions & { desk?: string; json?: boolean }) => {
    const { reopenWork } = await import('../../domain/work/status.ts');
    await withDeps(io, o, async (deps) => {
      const { ctx, id } = await contextForRow(deps, typed, o.desk);
      await acted(io, ctx, await reopenWork(ctx, id), o.json, `Reopened #${id}.`);
    });
  });

  const assign = work
    .command('assign')
    .description('Give a row to a person: the desk prepares it and stops')
    .addArgument(checkedArgument('<id>', 'work item id', idOf('work item')))
    .option('--desk <desk>', 'desk id or slug')
    .option('--to <person>', 'who does it')
    .option('--clear', 'hand the row back to the desk');
  checkedTogether(assign, (o) =>
    o.to !== undefined && o.clear
      ? 'work assign takes --to <person> or --clear, not both.'
      : o.to === undefined && !o.clear
        ? 'work assign needs either --to <person> or --clear.'
        : null,
  );
  jsonOption(dbOption(assign)).action(
    async (typed: TypedId, o: DbOptions & { desk?: string; to?: string; clear?: boolean; json?: boolean }) => {
      const { assignWork } = await import('../../domain/work/assign.ts');
      await withDeps(io, o, async (deps) => {
        const { ctx, id } = await contextForRow(deps, typed, o.desk);
        const a = await asFlags(() => assignWork(ctx, id, o.clear ? null : o.to!));
        const row = a.row;
        // A reply on the row is still to read, whether this handed it back or nobody had it.
        const toRead =
          !row.assignee && row.replied_at
            ? `${row.replied_by ? `${row.replied_by}'s reply` : 'a reply'} to read (desk work show ${id}). Complete, close or answer it, or give it to a person with --to.`
            : null;
        await acted(
          io,
          ctx,
          a,
          o.json,
          row.assignee
            ? `Assigned #${id} to ${row.assignee}.`
            : toRead
              ? `#${id} is given to nobody; it still holds ${toRead}`
              : `#${id} is back with the desk.`,
          toRead && `It still holds ${toRead}`,
        );
      });
    },
  );
  return work;
}
