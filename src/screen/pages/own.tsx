import type { OwnRecord, OwnRow } from '../../domain/work/own-record.ts';
import type { Markup } from '../jsx-runtime.ts';
import { FieldError, FormKeys, Page, when } from './layout.tsx';
import { plural } from '../../domain/text.ts';

// "On its own": the rails on what the desk does by itself, with their controls, and what it did
// on its own today and this week, each with its row.

export interface OwnView {
  desk: string;
  slug: string;
  timezone: string;
  csrf: string;
  record: OwnRecord;
  keys: { rails: string; pause: string };
  notice?: string;
  /** Refused values by field, said beside the field; the form keeps what was typed. */
  errors?: Record<string, string>;
  typed?: Record<string, string>;
  /** The rails as the form was first drawn with them; kept through a refusal (see RAIL_FIELDS). */
  drawn?: Record<string, string>;
}

/** The rails the form sets; only those changed from how it was drawn are saved. */
export const RAIL_FIELDS = ['hours', 'daily_cap', 'act_within_days'] as const;

function Acted(p: { rows: OwnRow[]; zone: string; none: string }): Markup {
  if (p.rows.length === 0) return <p class="meta">{p.none}</p>;
  return (
    <ul class="own-acts">
      {p.rows.map((r) => (
        <li>
          <a href={`/work/${r.id}`}>{r.title}</a>{' '}
          <span class="meta">
            {when(r.at, p.zone)}: {r.last_error ? `needs a look (${r.last_error})` : r.status}
            {r.waiting_on ? `, waiting on ${r.waiting_on}` : ''}
            {r.chases > 0 ? `, chased ${plural(r.chases, 'time')}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The rails in the order the form shows them, so the first refused one takes the focus. */
const RAIL_ORDER = ['hours', 'daily_cap', 'act_within_days'];

function Field(p: { v: OwnView; name: string; label: string; hint: string; value: string; type?: string }): Markup {
  const error = p.v.errors?.[p.name] ?? null;
  const value = p.v.typed?.[p.name] ?? p.value;
  const first = RAIL_ORDER.find((name) => p.v.errors?.[name]) === p.name;
  const id = `rail-${p.name}`;
  return (
    <>
      <label for={id}>{p.label}</label>
      <input
        id={id}
        name={p.name}
        type={p.type ?? 'text'}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        autofocus={first ? true : undefined}
        aria-describedby={`hint-${p.name}${error ? ` error-${p.name}` : ''}`}
      />
      <small id={`hint-${p.name}`} class="hint">
        {p.hint}
      </small>
      <FieldError id={`error-${p.name}`} message={error} />
    </>
  );
}

export function OwnPage(v: OwnView): Markup {
  const r = v.record.rails;
  return (
    <Page title="On its own" desk={v.desk} csrf={v.csrf}>
      <h1>On its own</h1>
      <p>What the desk does without asking, within the rails you set here.</p>
      {v.notice ? (
        <p class="notice" role="status">
          {v.notice}
        </p>
      ) : null}
      <section id="paused-state">
        <form method="post" action="/on-its-own/pause" data-once>
          <FormKeys csrf={v.csrf} idem={v.keys.pause} />
          <input type="hidden" name="paused" value={r.paused ? 'no' : 'yes'} />
          <p>
            {r.paused
              ? 'Paused: the desk does nothing on its own. You and the API can still act.'
              : `Working on its own, ${r.hours === 'always' ? 'at any hour' : `during ${r.hours}`}.`}
          </p>
          <button type="submit" class={r.paused ? '' : 'secondary'}>
            {r.paused ? 'Resume' : 'Pause'}
          </button>
        </form>
      </section>
      <h2>Rails</h2>
      <form method="post" action="/on-its-own/rails" data-once id="rails">
        <FormKeys csrf={v.csrf} idem={v.keys.rails} />
        {RAIL_FIELDS.map((f) => (
          <input type="hidden" name={`drawn_${f}`} value={v.drawn?.[f] ?? (f === 'hours' ? r.hours : String(r[f]))} />
        ))}
        <Field
          v={v}
          name="hours"
          label="Working hours"
          hint={`In ${v.timezone}: days and times such as "mon-fri 09:00-17:00", or "always".`}
          value={r.hours}
        />
        <Field
          v={v}
          name="daily_cap"
          label="Daily cap"
          hint="Acts the desk may do on its own in a day, 0 to 1000."
          value={String(r.daily_cap)}
          type="number"
        />
        <Field
          v={v}
          name="act_within_days"
          label="Acts ahead by (days)"
          hint="A row is in reach when it is overdue, undated or due within this many days, 0 to 365."
          value={String(r.act_within_days)}
          type="number"
        />
        <button type="submit">Save the rails</button>
      </form>
      <h2>What the desk did on its own today</h2>
      <Acted rows={v.record.today} zone={v.timezone} none="Nothing yet today." />
      <h2>This week</h2>
      <Acted rows={v.record.week} zone={v.timezone} none="Nothing in the last seven days." />
    </Page>
  );
}
