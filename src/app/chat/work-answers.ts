import type { DeskContext } from '../../domain/context.ts';
import type { WorkItem } from '../../domain/work/derive.ts';
import { needsPerson } from '../../domain/work/needs.ts';
import { byDue, horizon, overdueWork, Tally, tallyOpen, waitingWork, workDetail } from './facts.ts';
import { CLASS_WORDS, capitalise, mentions, plural, relativeDay, rowName, sentences, stop } from './words.ts';

// Answers about the queue: what is overdue, what needs the owner, what is out with somebody,
// and one row in full. Rows are named by title and #id, one sentence each.

/** What the row's action asks for, in a few words; the action itself comes from derive.ts. */
function nextStep(item: WorkItem): string | null {
  switch (item.action?.type) {
    case 'approve':
      return 'a prepared message waits for your approval';
    case 'run':
      return 'the desk can do it';
    case 'nudge':
      return `time to chase ${item.waiting_on}`;
    case 'wait':
      return `waiting on ${item.waiting_on}`;
    case 'own':
      return 'only a person can do it';
    case 'answer':
      return 'say who it goes to';
    case 'prepare':
      // A playbook row with nobody to write to is 'prepare' too: say what is so, not what the desk can do.
      return 'nothing is prepared for it yet';
    case 'fix':
      return 'the last attempt failed and needs a look';
    default:
      return null;
  }
}

function rowSentence(item: WorkItem, today: string): string {
  const when =
    item.due_date === null
      ? 'has no due date'
      : item.overdue
        ? `was due ${item.due_date} (${relativeDay(item.due_date, today)})`
        : `is due ${item.due_date} (${relativeDay(item.due_date, today)})`;
  const step = nextStep(item);
  return `${rowName(item)} ${when}${step ? `: ${step}` : ''}.`;
}

function openSentence(ctx: DeskContext): string {
  const n = ctx.desk.open_count;
  return n === 0 ? 'The queue is empty.' : `There ${n === 1 ? 'is' : 'are'} ${plural(n, 'open row')} in all.`;
}

export async function answerOverdue(ctx: DeskContext): Promise<string> {
  const today = ctx.today();
  const overdue = await overdueWork(ctx);
  if (overdue.total === 0) return `Nothing is overdue. ${openSentence(ctx)}`;
  return `${capitalise(plural(overdue.total, 'row'))} ${overdue.total === 1 ? 'is' : 'are'} overdue. ${sentences(
    overdue.items.map((i) => rowSentence(i, today)),
    10,
    overdue.total,
  )}`;
}

export async function answerNeedsMe(ctx: DeskContext, days: number | null, window: string): Promise<string> {
  const today = ctx.today();
  const all = new Tally(byDue, needsPerson);
  if (days === null) {
    await tallyOpen(ctx, {}, all);
    if (all.total === 0) return 'Nothing needs you right now: everything open is with the desk or out with somebody.';
    return `${capitalise(plural(all.total, 'row'))} ${all.total === 1 ? 'needs' : 'need'} you. ${sentences(
      all.items.map((i) => rowSentence(i, today)),
      10,
      all.total,
    )}`;
  }
  const until = horizon(ctx, days);
  const soon = new Tally(byDue, (i) => needsPerson(i) && i.due_date !== null && i.due_date <= until);
  await tallyOpen(ctx, {}, all, soon);
  const later = all.total - soon.total;
  const rest =
    later === 0
      ? ''
      : ` ${capitalise(plural(later, 'more row'))} ${later === 1 ? 'needs' : 'need'} you later or ${later === 1 ? 'has' : 'have'} no date.`;
  if (soon.total === 0) return `Nothing needs you ${window} (up to ${until}).${rest}`;
  const verb = soon.total === 1 ? 'needs' : 'need';
  return `${capitalise(plural(soon.total, 'row'))} ${verb} you ${window} (up to ${until}, overdue ones included). ${sentences(
    soon.items.map((i) => rowSentence(i, today)),
    10,
    soon.total,
  )}${rest}`;
}

/** Tallies of the dated and the undated open rows, to be filled by one read. */
function datedAndNot(): [Tally, Tally] {
  return [new Tally(byDue, (i) => i.due_date !== null), new Tally(byDue, (i) => i.due_date === null)];
}

/** Every dated open row, soonest first, and how many have no date. */
function everyDated(dated: Tally, undated: number, today: string): string {
  const rest =
    undated === 0
      ? ''
      : ` ${capitalise(plural(undated, 'more open row'))} ${undated === 1 ? 'has' : 'have'} no due date.`;
  if (dated.total === 0) return `No open row has a due date.${rest}`;
  const have = dated.total === 1 ? 'has' : 'have';
  return `${capitalise(plural(dated.total, 'open row'))} ${have} a due date, soonest first. ${sentences(
    dated.items.map((i) => rowSentence(i, today)),
    10,
    dated.total,
  )}${rest}`;
}

/**
 * "When is the VAT return due?": the open rows whose titles say most of the words asked. Only
 * when no title says any of them is every dated row given, after saying that nothing matched.
 */
export async function answerDueNamed(ctx: DeskContext, named: readonly string[]): Promise<string> {
  const today = ctx.today();
  const said = (i: WorkItem) => named.filter((w) => mentions([w], i.title)).length;
  let most = 0;
  const [dated, undated] = datedAndNot();
  const best = {
    add: (i: WorkItem) => {
      most = Math.max(most, said(i));
    },
  };
  await tallyOpen(ctx, {}, best, dated, undated);
  const asked = named.join(' ');
  if (most === 0) return `No open row matches "${asked}". ${everyDated(dated, undated.total, today)}`;
  const found = new Tally(byDue, (i) => said(i) === most);
  await tallyOpen(ctx, {}, found);
  if (found.total === 1) return rowSentence(found.items[0]!, today);
  return `${capitalise(plural(found.total, 'open row'))} match "${asked}", soonest first. ${sentences(
    found.items.map((i) => rowSentence(i, today)),
    10,
    found.total,
  )}`;
}

/** Open rows by due date alone: due by the window's last day (overdue included), or every dated one. */
export async function answerDue(ctx: DeskContext, days: number | null, window: string): Promise<string> {
  const today = ctx.today();
  if (days === null) {
    const [dated, undated] = datedAndNot();
    await tallyOpen(ctx, {}, dated, undated);
    return everyDated(dated, undated.total, today);
  }
  const until = horizon(ctx, days);
  // Overdue rows are said apart: "2 rows are due today" must not count rows due last week.
  const due = new Tally(byDue, (i) => i.due_date !== null && !i.overdue);
  const overdue = new Tally(byDue, (i) => i.due_date !== null && i.overdue);
  await tallyOpen(ctx, { dueBy: until }, due, overdue);
  const head =
    due.total === 0
      ? `Nothing is due ${window} (up to ${until}).`
      : `${capitalise(plural(due.total, 'row'))} ${due.total === 1 ? 'is' : 'are'} due ${window} (up to ${until}). ${sentences(
          due.items.map((i) => rowSentence(i, today)),
          10,
          due.total,
        )}`;
  if (overdue.total === 0) return head;
  const also = due.total === 0 ? '' : ' also';
  return `${head} ${capitalise(plural(overdue.total, 'row'))} ${overdue.total === 1 ? 'is' : 'are'}${also} overdue. ${sentences(
    overdue.items.map((i) => rowSentence(i, today)),
    10,
    overdue.total,
  )}`;
}

export async function answerWaiting(ctx: DeskContext): Promise<string> {
  const waiting = await waitingWork(ctx);
  if (waiting.total === 0) return 'We are not waiting on anybody: no open row is out with somebody.';
  const parts = waiting.items.map((i) => {
    const days = i.days_waiting ?? 0;
    const how = days === 0 ? 'since today' : `for ${plural(days, 'day')}`;
    const chase = i.action?.type === 'nudge' ? `; time to chase${i.allowed ? ', and the desk may do it' : ''}` : '';
    return `${i.waiting_on} on ${rowName(i)}, ${how}${chase}.`;
  });
  return `We are waiting on ${plural(waiting.total, 'row')}. ${sentences(parts, 10, waiting.total)}`;
}

export async function answerRow(ctx: DeskContext, id: number): Promise<string> {
  const found = await workDetail(ctx, id);
  if (!found) return `There is no row ${id} on this desk.`;
  const { item, arrangement, unit } = found;
  const today = ctx.today();
  const s: string[] = [];
  s.push(
    `${rowName(item)} is ${item.status.replace('_', ' ')}: ${item.kind.replace(/_/g, ' ')} work, priority ${item.priority}.`,
  );
  if (item.due_date === null) s.push('It has no due date.');
  else if (item.overdue && item.action !== null)
    s.push(`It was due ${item.due_date} (${relativeDay(item.due_date, today)}) and is overdue.`);
  else
    s.push(`It ${item.due_date < today ? 'was' : 'is'} due ${item.due_date} (${relativeDay(item.due_date, today)}).`);
  if (arrangement || unit) s.push(`It belongs to ${[arrangement, unit].filter(Boolean).join(' and ')}.`);
  if (item.waiting_on)
    s.push(
      `It is out with ${item.waiting_on}${item.days_waiting ? ` and has been for ${plural(item.days_waiting, 'day')}` : ''}.`,
    );
  if (item.permission === null) s.push('It is in no permission class, so the desk always asks.');
  else
    s.push(
      `It is ${item.permission} work; the desk ${item.allowed ? 'may' : 'may not'} ${CLASS_WORDS[item.permission] ?? item.permission} on its own.`,
    );
  if (item.has_draft) s.push('A message is prepared and waiting to be sent.');
  if (item.last_error && item.action?.type !== 'fix') s.push(stop(`The last attempt failed: ${item.last_error}`));
  if (item.action) s.push(`Next: ${stop(item.action.label)} ${stop(item.action.hint)}`);
  else
    s.push(
      item.status === 'done' || item.status === 'closed'
        ? 'Nothing more is needed.'
        : 'Nothing is needed from anyone right now.',
    );
  if (item.detail) s.push(stop(`Notes: ${item.detail}`));
  return s.join(' ');
}
