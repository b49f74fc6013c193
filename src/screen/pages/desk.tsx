import type { ChatResult } from '../../domain/chat/ask.ts';
import type { BlockContents } from '../../domain/desks/block-contents.ts';
import type { DeskSection } from '../../domain/desks/sections.ts';
import type { WorkItem } from '../../domain/work/derive.ts';
import type { WorkPage } from '../../domain/work/list.ts';
import { OPEN_STATUSES } from '../../domain/vocab.ts';
import type { Markup } from '../jsx-runtime.ts';
import { FieldError, FormKeys, Notice, Page } from './layout.tsx';
import { plural } from '../../domain/text.ts';
import { nextTrail, previousPage, writeTrail, type Trail } from '../pager.ts';
import { amount } from './amount.ts';

// The desk page: the counts, the sections in GET /desk order, the open queue in the API's
// order with its filters and pages, and the chat box.

export interface Counts {
  needs_you: number;
  with_desk: number;
  waiting: number;
  /** Rows with a reply nobody has read yet. */
  replies: number;
  done_today: number;
}

export interface DeskView {
  desk: string;
  csrf: string;
  counts: Counts;
  sections: DeskSection[];
  /** What the units, money and dates blocks hold, by block id. */
  contents: ReadonlyMap<string, BlockContents>;
  /** The blocks the desk keeps, which the owner may remove (not the block of other kinds). */
  kept: ReadonlySet<string>;
  /** What the form just sent did, as the page it led to says once. */
  notice?: string;
  /** Every kind among the open rows, so the filter reaches each whatever page is shown. */
  kinds: string[];
  page: WorkPage;
  filters: { status?: string; kind?: string; cursor?: string };
  /** The cursors of the pages before this one, so that it can link to the previous. */
  trail: Trail;
  chat: ChatView;
}

export interface ChatView {
  key: string;
  asked?: ChatResult;
  error?: string;
  text?: string;
}

const STATUS_WORDS: Record<string, string> = { open: 'Open', in_progress: 'In progress', waiting: 'Waiting' };

/** A count as the CLI prints one: 30,000. */
const count = (n: number) => n.toLocaleString('en');

/** What an empty page of the queue says: why it is empty, and where the rows are if it can tell. */
function emptyQueue(v: DeskView): string {
  if (!v.filters.status && !v.filters.kind) return 'Nothing is open: the queue is empty.';
  const none = `No open rows match these filters; ${count(v.page.open_total)} open in all.`;
  // "Waiting" is a status; a row out with somebody, counted above as waiting on an answer, is
  // often still Open.
  if (v.filters.status === 'waiting' && !v.filters.kind && v.counts.waiting > 0)
    return `${none} The ${plural(v.counts.waiting, 'row')} waiting on an answer counted above ${v.counts.waiting === 1 ? 'has' : 'have'} another status: filter by Open or In progress to see ${v.counts.waiting === 1 ? 'it' : 'them'}.`;
  return none;
}

function queueHref(f: { status?: string; kind?: string; cursor?: string; trail?: Trail }): string {
  const q = new URLSearchParams();
  if (f.status) q.set('status', f.status);
  if (f.kind) q.set('kind', f.kind);
  if (f.cursor) q.set('cursor', f.cursor);
  if (f.cursor && f.trail) q.set('back', writeTrail(f.trail));
  const s = q.toString();
  return s ? `/?${s}` : '/';
}

/** First, previous and next pages of the queue, each where it leads somewhere else. */
function Pager({ v }: { v: DeskView }): Markup {
  const { status, kind, cursor } = v.filters;
  const previous = cursor ? previousPage(v.trail) : null;
  // On the second page the previous page is the first: one link says it.
  const first = cursor !== undefined && (previous === null || previous.cursor !== undefined);
  // A queue on one page has no pages to go to: no empty landmark for a screen reader to land on.
  if (!first && !previous && !v.page.next_cursor) return <></>;
  return (
    <nav aria-label="Pages of open work" class="pager">
      {first ? <a href={queueHref({ status, kind })}>First page</a> : null}
      {previous ? (
        <a rel="prev" href={queueHref({ status, kind, cursor: previous.cursor, trail: previous.trail })}>
          Previous page
        </a>
      ) : null}
      {v.page.next_cursor ? (
        <a rel="next" href={queueHref({ status, kind, cursor: v.page.next_cursor, trail: nextTrail(cursor, v.trail) })}>
          Next page
        </a>
      ) : null}
    </nav>
  );
}

function due(item: WorkItem): string {
  if (item.due_date === null || item.days_to_due === null) return 'No due date';
  // Overdue from the day after it was due (D9): the date said is the one it was due on.
  if (item.overdue) return `Overdue: due ${item.due_date}`;
  if (item.days_to_due === 0) return 'Due today';
  return `Due ${item.due_date}`;
}

function Row(p: { item: WorkItem }): Markup {
  const i = p.item;
  return (
    <li class="queue-row">
      <article>
        <header>
          <a href={`/work/${i.id}`}>{i.title}</a>
        </header>
        <p class="meta">
          <span>{i.kind}</span> · <span class={i.overdue ? 'overdue' : ''}>{due(i)}</span> ·{' '}
          <span>{STATUS_WORDS[i.status] ?? i.status}</span> · <span>Priority {i.priority}</span>
        </p>
        {i.action ? (
          <p>
            <strong>{i.action.label}</strong> — {i.action.hint}
          </p>
        ) : null}
      </article>
    </li>
  );
}

/** A unit's own column as the block names it: its hint where it has one ("Date the lease ends"). */
function column(f: DeskSection['fields'][number]): string {
  return f.hint || f.name.replace(/_/g, ' ');
}

function Contents(p: { s: DeskSection; c: BlockContents }): Markup {
  const c = p.c;
  if (c.kind === 'units') {
    if (c.items.length === 0)
      return (
        <p>
          No {p.s.unit} is recorded yet. <a href="/arrangements#units-title">Add one under Units</a>.
        </p>
      );
    return (
      <>
        <ul class="block-list">
          {c.items.map((u) => (
            <li>
              <strong>{u.name}</strong>
              {p.s.fields.map((f) => {
                const x = u.fields[f.name];
                return (
                  <>
                    <br />
                    {column(f)}: {x === null || x === undefined || x === '' ? 'not set' : String(x)}
                  </>
                );
              })}
            </li>
          ))}
        </ul>
        {c.more > 0 ? (
          <p class="meta">
            and {plural(c.more, p.s.unit ?? 'unit')} more, <a href="/arrangements#units-title">all under Units</a>.
          </p>
        ) : null}
      </>
    );
  }
  if (c.kind === 'money') {
    if (c.owed.length === 0 && c.costs.length === 0) return <p>Nothing is owed, and no arrangement has an amount.</p>;
    return (
      <>
        {c.owed.length > 0 ? (
          <>
            <p>
              <strong>Owed: {amount(c.owed_total, c.currency)}</strong>
            </p>
            <ul class="block-list">
              {c.owed.map((d) => (
                <li>
                  {d.name}: {d.status}, {amount(d.amount_cents, d.currency)}
                  {d.renewal_on ? `, renews ${d.renewal_on}` : ''}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>Nothing is owed.</p>
        )}
        {c.costs.length > 0 ? (
          <>
            <p>
              <strong>What the arrangements cost</strong>
            </p>
            <ul class="block-list">
              {c.costs.map((a) => (
                <li>
                  <a href="/arrangements">{a.name}</a>: {amount(a.amount_cents!, a.currency ?? '')}
                  {a.renews_on ? `, renews ${a.renews_on}` : ''}
                </li>
              ))}
            </ul>
            {c.costs_more > 0 ? (
              <p class="meta">
                and {plural(c.costs_more, 'arrangement')} more, <a href="/arrangements">all under Arrangements</a>.
              </p>
            ) : null}
          </>
        ) : null}
      </>
    );
  }
  if (c.ahead.length === 0) return <p>No date is coming up.</p>;
  return (
    <>
      <ul class="block-list">
        {c.ahead.map((d) => (
          <li>
            <time datetime={d.on}>{d.on}</time>: {d.what}
            {d.work_from ? ` (in the queue from ${d.work_from})` : ''}
          </li>
        ))}
      </ul>
      {c.more > 0 ? <p class="meta">and {plural(c.more, 'date')} after these.</p> : null}
    </>
  );
}

function Section(p: { s: DeskSection; removable?: boolean; contents?: BlockContents }): Markup {
  const s = p.s;
  return (
    <article class="desk-section" id={`section-${s.id}`}>
      <h3>{s.title}</h3>
      {s.blurb ? <p>{s.blurb}</p> : null}
      {s.why ? <p class="why">{s.why}</p> : null}
      {s.kind === 'work' && s.kinds.length > 0 ? (
        <p>
          {s.kinds.map((k, n) => (
            <>
              {n > 0 ? ', ' : ''}
              <a href={queueHref({ kind: k })}>{`Show ${k}`}</a>
            </>
          ))}
        </p>
      ) : null}
      {p.contents ? <Contents s={s} c={p.contents} /> : null}
      {s.fields.length > 0 && p.contents?.kind !== 'units' ? (
        <ul>
          {s.fields.map((f) => (
            <li>
              <strong>{f.name}</strong>
              {f.hint ? ` — ${f.hint}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {p.removable ? (
        <p class="meta">
          <a href={`/blocks/${encodeURIComponent(s.id)}/remove`}>Remove "{s.title}"</a>
        </p>
      ) : null}
    </article>
  );
}

export function ChatAnswer(p: { chat: ChatView; oob?: boolean }): Markup {
  const a = p.chat.asked;
  return (
    <div id="chat-answer" aria-live="polite">
      {p.oob && p.chat.error ? (
        <p class="field-error" role="alert" id="chat-text-error">
          {p.chat.error}
        </p>
      ) : null}
      {a ? (
        <>
          <p>
            <strong>You asked:</strong> {a.question}
          </p>
          <p class="answer">
            {a.timed_out ? 'The desk did not answer in time; nothing was changed. Ask again.' : a.answer}
          </p>
          {a.desk_added.length > 0 ? (
            <>
              <p>
                <strong>Added to your desk:</strong>
              </p>
              {a.desk_added.map((s) => (
                <Section s={s} />
              ))}
            </>
          ) : null}
        </>
      ) : null}
      {p.oob ? (
        <>
          <input type="hidden" name="idempotency_key" value={p.chat.key} id="chat-key" hx-swap-oob="true" />
          {/* The field as the whole page would draw it: marked and focused when refused, plain again when not. */}
          <QuestionField chat={p.chat} oob />
        </>
      ) : null}
    </div>
  );
}

function QuestionField(p: { chat: ChatView; oob?: boolean }): Markup {
  return (
    <input
      id="chat-text"
      name="text"
      type="text"
      value={p.chat.text ?? (p.oob ? p.chat.asked?.question : undefined) ?? ''}
      placeholder="What is overdue?"
      aria-invalid={p.chat.error ? 'true' : undefined}
      aria-describedby={p.chat.error ? 'chat-text-error' : undefined}
      autofocus={p.chat.error ? true : undefined}
      hx-swap-oob={p.oob ? 'true' : undefined}
    />
  );
}

export function ChatBox(p: { csrf: string; chat: ChatView }): Markup {
  return (
    <section aria-labelledby="chat-title">
      <h2 id="chat-title">Ask the desk</h2>
      {/* A second click while the first question is out is dropped: its answer brings a fresh key. The button
       stays enabled meanwhile, since a disabled button drops the keyboard's focus to the page. */}
      <form
        method="post"
        action="/chat#chat-answer"
        hx-post="/chat"
        hx-target="#chat-answer"
        hx-swap="outerHTML"
        hx-sync="this:drop"
        data-once
      >
        <FormKeys csrf={p.csrf} idem={p.chat.key} id="chat-key" />
        <label for="chat-text">Your question</label>
        <QuestionField chat={p.chat} />
        <FieldError id="chat-text-error" message={p.chat.error} />
        <button type="submit">Ask</button>
        {/* The script says here that a question is out, as the button stays as it was. */}
        <p id="chat-busy" class="meta" role="status" />
      </form>
      <ChatAnswer chat={p.chat} />
    </section>
  );
}

export function DeskPage(v: DeskView): Markup {
  const kinds = [...new Set([...v.kinds, ...v.sections.flatMap((s) => s.kinds)])].sort();
  if (v.filters.kind && !kinds.includes(v.filters.kind)) kinds.push(v.filters.kind);
  return (
    <Page title="Desk" desk={v.desk} csrf={v.csrf}>
      <h1>{v.desk}</h1>
      <Notice text={v.notice} />
      <section aria-labelledby="counts-title">
        <h2 id="counts-title" class="visually-hidden">
          Counts
        </h2>
        <ul class="counts">
          {/* By permission (D21): a row the desk may do can still need a look or the owner's hand,
              which its own action says; "needs you" beside "Needs a look" rows read as untrue. */}
          <li>
            <span class="count">{v.counts.needs_you}</span> {v.counts.needs_you === 1 ? 'needs' : 'need'} your OK
          </li>
          <li>
            <span class="count">{v.counts.with_desk}</span> the desk may do
          </li>
          <li>
            {/* Rows owed an answer, whatever their status: the Waiting filter is the status alone. */}
            <span class="count">{v.counts.waiting}</span> waiting on an answer
          </li>
          <li>
            <span class="count">{v.counts.replies}</span> {v.counts.replies === 1 ? 'reply' : 'replies'} to read
          </li>
          <li>
            <span class="count">{v.counts.done_today}</span> done today
          </li>
        </ul>
      </section>

      <section aria-labelledby="queue-title">
        <h2 id="queue-title">Open work</h2>
        <p>
          <a href="/work/new">Add a row</a>
        </p>
        <form method="get" action="/" class="filters">
          <label for="filter-status">
            Status
            <select id="filter-status" name="status">
              <option value="" selected={!v.filters.status}>
                Any status
              </option>
              {OPEN_STATUSES.map((s) => (
                <option value={s} selected={v.filters.status === s}>
                  {STATUS_WORDS[s] ?? s}
                </option>
              ))}
            </select>
          </label>
          <label for="filter-kind">
            Kind
            <select id="filter-kind" name="kind">
              <option value="" selected={!v.filters.kind}>
                Any kind
              </option>
              {kinds.map((k) => (
                <option value={k} selected={v.filters.kind === k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Filter</button>
        </form>
        <p>
          {v.page.items.length === 0
            ? emptyQueue(v)
            : v.filters.status || v.filters.kind
              ? `Showing ${plural(v.page.items.length, 'matching row')}${v.page.next_cursor ? ' (more on the next page)' : ''}; ${count(v.page.open_total)} open in all.`
              : v.filters.cursor
                ? `Showing ${v.page.items.length} more of ${count(v.page.open_total)} open rows.`
                : `Showing ${v.page.items.length} of ${count(v.page.open_total)} open rows.`}
        </p>
        <ol class="queue">
          {v.page.items.map((item) => (
            <Row item={item} />
          ))}
        </ol>
        <Pager v={v} />
      </section>

      <ChatBox csrf={v.csrf} chat={v.chat} />

      <section aria-labelledby="sections-title">
        <h2 id="sections-title">Your desk</h2>
        {v.sections.length === 0 ? (
          <p>No blocks yet. Ask the desk above to add one: "add a block for money owed", say.</p>
        ) : null}
        <div id="desk-sections">
          {v.sections.map((s) => (
            <Section s={s} removable={v.kept.has(s.id)} contents={v.contents.get(s.id)} />
          ))}
        </div>
      </section>
    </Page>
  );
}
