import type { ActivityEntry } from '../../domain/record/activity.ts';
import { inRows } from '../words.ts';
import type { EventEntry } from '../../domain/record/events.ts';
import type { RunEvent } from '../live-runs.ts';
import type { Markup } from '../jsx-runtime.ts';
import { Page, when } from './layout.tsx';

// The smaller pages: sign-in, the record, a run followed live, and errors.

export function SignInPage(p: { problem?: string; command: string }): Markup {
  return (
    <Page title="Sign in">
      <h1>Sign in to your desk</h1>
      {p.problem ? (
        <p class="field-error" role="alert">
          {p.problem}
        </p>
      ) : null}
      <p>
        The desk's screen opens from a sign-in link, which works once and for 15 minutes. Ask for a new one on the
        machine that runs the desk:
      </p>
      <pre class="command">
        <code>{p.command}</code>
      </pre>
    </Page>
  );
}

/**
 * A link opened is asked about, not used: opening it may not be the owner's own doing (a page that
 * sends them to another desk's link), and a chat program's preview would otherwise use it up. In
 * a browser signed in to another desk (`desk`), it says which desk it leaves and offers to stay;
 * in one signed in nowhere, the button has the focus.
 */
export function SignInQuestionPage(p: {
  desk?: { name: string; slug: string };
  csrf: string;
  to: { name: string; slug: string };
  token: string;
}): Markup {
  // Names are the owners' own and two desks may share one; the address (slug) is unique, so it
  // is said beside each name.
  const to = p.to.name;
  const desk = p.desk?.name;
  return (
    <Page title={`Sign in to ${to}?`} desk={desk} csrf={p.desk ? p.csrf : undefined}>
      <h1>Sign in to {to}?</h1>
      {p.desk ? (
        <p>
          This browser is signed in to {desk}, at the address <code>{p.desk.slug}</code>. The link you opened signs it
          in to {to}, at the address <code>{p.to.slug}</code>, instead, and out of {desk}.
        </p>
      ) : (
        <p>
          This link signs this browser in to the desk {to}, at the address <code>{p.to.slug}</code>. It works once.
        </p>
      )}
      <form method="post" action="/sign-in">
        <input type="hidden" name="_csrf" value={p.csrf} />
        <input type="hidden" name="token" value={p.token} />
        <button type="submit" autofocus={p.desk ? undefined : true}>
          Sign in to {to}
        </button>
      </form>
      {p.desk ? (
        <p>
          <a href="/">Stay on {desk}</a>
        </p>
      ) : null}
    </Page>
  );
}

export function ErrorPage(p: { title: string; message: string; desk?: string; csrf?: string }): Markup {
  return (
    <Page title={p.title} desk={p.desk} csrf={p.csrf}>
      <h1>{p.title}</h1>
      <p>{p.message}</p>
      <p>
        <a href="/">Back to the desk</a>
      </p>
    </Page>
  );
}

/**
 * Who an event's data names where its message may not (P-screen-27): the key an API write came
 * with, by its leading characters as `GET /events` gives them, or the person who did it.
 */
function eventBy(e: EventEntry): string | null {
  const d = e.data as Record<string, unknown>;
  if (typeof d.key_prefix === 'string' && d.key_prefix !== '') return `key ${d.key_prefix}…`;
  for (const field of ['actor', 'by'])
    if (typeof d[field] === 'string' && d[field] !== '' && !e.message.includes(d[field] as string))
      return d[field] as string;
  return null;
}
export function RecordPage(p: {
  desk: string;
  zone: string;
  csrf: string;
  events: EventEntry[];
  activity: ActivityEntry[];
  limits: { events: number; activity: number };
  max: number;
}): Markup {
  const more = (which: 'events' | 'activity') => {
    const l = { ...p.limits, [which]: Math.min(p.max, p.limits[which] * 2) };
    return `/record?events=${l.events}&activity=${l.activity}`;
  };
  return (
    <Page title="Record" desk={p.desk} csrf={p.csrf}>
      <h1>Record</h1>
      <section aria-labelledby="activity-title">
        <h2 id="activity-title">Activity: what was written or sent</h2>
        <ol class="record">
          {p.activity.map((a) => (
            <li>
              {/* Listed by when each was written, as /activity is; a message sent later says when. */}
              <time datetime={a.created_at}>{when(a.created_at, p.zone)}</time> · {a.channel} ·{' '}
              {a.sent_at ? (
                <>
                  {a.direction === 'inbound' ? 'received ' : 'sent '}
                  <time datetime={a.sent_at}>{when(a.sent_at, p.zone)}</time>
                  {/* A bounce puts a sent message back to approved: it went, and did not arrive. */}
                  {a.direction === 'outbound' && a.status !== 'sent' ? ', not delivered' : ''}
                </>
              ) : (
                a.status
              )}{' '}
              · {a.actor}
              {a.obligation_id !== null ? (
                <>
                  {' · '}
                  <a href={`/work/${a.obligation_id}`}>{`Row ${a.obligation_id}`}</a>
                </>
              ) : null}
              <br />
              {a.subject ? <strong>{a.subject}</strong> : null}
              <p class="body">{a.body}</p>
            </li>
          ))}
        </ol>
        {p.activity.length >= p.limits.activity && p.limits.activity < p.max ? (
          <a href={more('activity')}>Show more activity</a>
        ) : null}
      </section>
      <section aria-labelledby="events-title">
        <h2 id="events-title">Events: the desk's own log</h2>
        <ol class="record">
          {p.events.map((e) => {
            const by = eventBy(e);
            return (
              <li>
                <time datetime={e.created_at}>{when(e.created_at, p.zone)}</time> · {e.kind} · {inRows(e.message)}
                {by ? ` · by ${by}` : null}
                {typeof e.data.work_id === 'number' ? (
                  <>
                    {' · '}
                    <a href={`/work/${e.data.work_id}`}>{`Row ${e.data.work_id}`}</a>
                  </>
                ) : null}
              </li>
            );
          })}
        </ol>
        {p.events.length >= p.limits.events && p.limits.events < p.max ? (
          <a href={more('events')}>Show more events</a>
        ) : null}
      </section>
    </Page>
  );
}

export function RunPage(p: {
  desk: string;
  csrf: string;
  workId: number;
  title: string;
  runId: string | null;
  events: RunEvent[];
}): Markup {
  const steps = p.events.filter((e) => e.type === 'step');
  const end = p.events.find((e) => e.type === 'end');
  const ended = { ok: `Run finished: ${p.title}`, failed: `Run stopped: ${p.title}` };
  const heading =
    p.runId === null
      ? `Run: ${p.title}`
      : end && end.type === 'end'
        ? ended[end.ok ? 'ok' : 'failed']
        : `Running: ${p.title}`;
  return (
    <Page title={heading} desk={p.desk} csrf={p.csrf}>
      <p>
        <a href={`/work/${p.workId}`}>Back to the row</a>
      </p>
      {/* The script swaps in the ended heading, and the tab's title with it, when the run ends. */}
      <h1 id="run-heading" data-ended-ok={ended.ok} data-ended-failed={ended.failed}>
        {heading}
      </h1>
      {p.runId === null ? (
        <p>This run is no longer followed here; what came of it is on the row's timeline.</p>
      ) : (
        <section
          aria-labelledby="steps-title"
          data-run-events={end ? undefined : `/work/${p.workId}/runs/${encodeURIComponent(p.runId)}/events`}
        >
          <h2 id="steps-title">Steps</h2>
          <ol id="run-steps" aria-live="polite">
            {steps.map((s) => (
              <li>{s.type === 'step' ? s.text : ''}</li>
            ))}
          </ol>
          {/* A run that writes, rather than drives a portal, has no steps; the script shows this when it ends so. */}
          <p id="run-no-steps" class="meta" hidden={!(end && steps.length === 0)}>
            None: the desk did this without a browser.
          </p>
          <h2>Outcome</h2>
          <p id="run-outcome" role="status" aria-live="polite">
            {end && end.type === 'end' ? end.outcome : 'The desk is working on it…'}
          </p>
          {end ? null : (
            <noscript>
              <p>
                <a href={`/work/${p.workId}/runs/${encodeURIComponent(p.runId)}`}>Reload to see the outcome</a>
              </p>
            </noscript>
          )}
        </section>
      )}
    </Page>
  );
}
