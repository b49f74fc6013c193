import type { Arrangement } from '../../domain/arrangements/list.ts';
import type { Unit } from '../../domain/desks/units.ts';
import type { UpcomingWatch } from '../../domain/watches/upcoming.ts';
import { WATCH_LABELS } from '../../domain/watches/save.ts';
import { ARRANGEMENT_STATUSES, PERMISSION_CLASSES } from '../../domain/vocab.ts';
import type { Markup } from '../jsx-runtime.ts';
import { Choice, DrawnFields, Field, FormProblem, Lines, type FormState } from './form-fields.tsx';
import { FormKeys, Notice, Page } from './layout.tsx';
import { amount } from './amount.ts';

// What the desk is built around: arrangements (leases, contracts), units (sites, vans) and the
// watches that turn a unit's dates into work, each listed with a page to add or edit it.

/** One page of a long list: its entries, where it starts in the list, and how long the list is. */
export interface ListPage<T> {
  items: T[];
  from: number;
  total: number;
}

export interface SetupView {
  desk: string;
  csrf: string;
  today: string;
  arrangements: ListPage<Arrangement>;
  units: ListPage<Unit>;
  /** Every arrangement's name, for the units that name theirs. */
  arrangementName: ReadonlyMap<number, string>;
  /** The address of the page showing the arrangements and the units from the places given. */
  pageAt: (at: { arrangements: number; units: number }, section: string) => string;
  perPage: number;
  watches: UpcomingWatch[];
  notice?: string;
}

/** Where a list's page stands in it, and links to the pages before and after, when it has more than one. */
function Pages(p: {
  what: string;
  list: ListPage<unknown>;
  perPage: number;
  at: (from: number) => string;
}): Markup | null {
  const { from, total, items } = p.list;
  if (total <= p.perPage) return null;
  const count = (n: number) => n.toLocaleString('en-GB');
  return (
    <nav class="list-pages" aria-label={`Pages of ${p.what}`}>
      <p>
        {`Showing ${count(from + 1)}-${count(from + items.length)} of ${count(total)} ${p.what}.`}
        {from > 0 ? (
          <>
            {' '}
            <a href={p.at(Math.max(0, from - p.perPage))}>{`The ${count(p.perPage)} before`}</a>
          </>
        ) : null}
        {from + items.length < total ? (
          <>
            {' '}
            <a href={p.at(from + p.perPage)}>{`The next ${count(Math.min(p.perPage, total - from - items.length))}`}</a>
          </>
        ) : null}
      </p>
    </nav>
  );
}

// An empty cell or "lease_end: ;" reads as a fault in the page; an owner reads words.
const NOT_SET = 'not set';

function money(cents: number | null, currency: string | null): string {
  return cents === null || currency === null ? NOT_SET : amount(cents, currency);
}

/** Text with each date in it kept on one line: a narrow cell would otherwise break one at a hyphen. */
function datesWhole(text: string): Markup {
  return (
    <>{text.split(/(\d{4}-\d{2}-\d{2})/).map((part, i) => (i % 2 === 1 ? <span class="nowrap">{part}</span> : part))}</>
  );
}

function columns(fields: Unit['fields']): Markup {
  const said = Object.entries(fields).map(([k, x]) => `${k}: ${x === null || x === '' ? NOT_SET : x}`);
  return datesWhole(said.length ? said.join('; ') : 'none');
}

function nextWords(w: UpcomingWatch, today: string): string {
  const n = w.next;
  const type = w.watch.subject_type;
  if (n.starts_on === null) {
    // A watch watches units of a type: "arrangement" too names a unit type, not the arrangements.
    if (n.why === 'no_units') return `Never yet: the desk has no unit of type "${type}".`;
    if (n.why === 'no_dates') return `Never yet: no unit of type "${type}" has a date in ${w.watch.field}.`;
    if (n.why === 'ended') return 'Never again: the work it made is finished, and it does not come round again.';
    return 'When the work it made last is done or closed.';
  }
  const day = n.starts_on <= today ? `${n.starts_on} (today)` : n.starts_on;
  return `${day}, for ${n.unit}: ${w.watch.field} ${n.occurrence}`;
}

export function SetupPage(v: SetupView): Markup {
  const arrangementName = v.arrangementName;
  const at = { arrangements: v.arrangements.from, units: v.units.from };
  return (
    <Page title="Arrangements" desk={v.desk} csrf={v.csrf}>
      <h1>Arrangements, units and watches</h1>
      <Notice text={v.notice} />
      <section aria-labelledby="arrangements-title">
        <h2 id="arrangements-title">Arrangements</h2>
        <p>Leases, contracts and agreements, with who to write to about them.</p>
        {v.arrangements.total === 0 ? (
          <p>No arrangements yet.</p>
        ) : (
          <div class="table-wrap">
            <table id="arrangements" aria-labelledby="arrangements-title">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" class="wide-only">
                    With
                  </th>
                  <th scope="col" class="wide-only">
                    Status
                  </th>
                  <th scope="col">Renews</th>
                  <th scope="col">Amount</th>
                </tr>
              </thead>
              <tbody>
                {v.arrangements.items.map((a) => (
                  <tr data-arrangement-id={String(a.id)}>
                    <td class="may-break">
                      <a href={`/arrangements/${a.id}`}>{a.name}</a>
                    </td>
                    <td class="may-break wide-only">{a.counterparty ?? NOT_SET}</td>
                    <td class="wide-only">{a.status}</td>
                    <td class="nowrap">{a.renews_on ?? NOT_SET}</td>
                    <td>{money(a.amount_cents, a.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pages
          what="arrangements"
          list={v.arrangements}
          perPage={v.perPage}
          at={(from) => v.pageAt({ ...at, arrangements: from }, 'arrangements-title')}
        />
        <p>
          <a href="/arrangements/new">Add an arrangement</a>
        </p>
      </section>
      <section aria-labelledby="units-title">
        <h2 id="units-title">Units</h2>
        <p>The things the business is built around, such as sites or vans, with the dates that matter.</p>
        {v.units.total === 0 ? (
          <p>No units yet.</p>
        ) : (
          <div class="table-wrap">
            <table id="units" aria-labelledby="units-title">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" class="wide-only">
                    Type
                  </th>
                  <th scope="col" class="spare-column">
                    Arrangement
                  </th>
                  <th scope="col">Columns</th>
                </tr>
              </thead>
              <tbody>
                {v.units.items.map((u) => (
                  <tr data-unit-id={String(u.id)}>
                    <td class="may-break">
                      <a href={`/units/${u.id}`}>{u.name}</a>
                    </td>
                    <td class="wide-only">{u.type}</td>
                    <td class="may-break spare-column">
                      {(u.arrangement_id !== null && arrangementName.get(u.arrangement_id)) || 'none'}
                    </td>
                    <td class="may-break">{columns(u.fields)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pages
          what="units"
          list={v.units}
          perPage={v.perPage}
          at={(from) => v.pageAt({ ...at, units: from }, 'units-title')}
        />
        <p>
          <a href="/units/new">Add a unit</a>
        </p>
      </section>
      <section aria-labelledby="watches-title">
        <h2 id="watches-title">Watches</h2>
        <p>A watch turns a date on each unit of a type into work, a number of days ahead of it.</p>
        {v.watches.length === 0 ? (
          <p>No watches yet.</p>
        ) : (
          <div class="table-wrap">
            <table id="watches" aria-labelledby="watches-title">
              <thead>
                <tr>
                  <th scope="col">Watch</th>
                  <th scope="col" class="spare-column">
                    Date watched
                  </th>
                  <th scope="col">Days ahead</th>
                  <th scope="col">Next turns into work</th>
                </tr>
              </thead>
              <tbody>
                {v.watches.map((w) => (
                  <tr data-watch-id={String(w.watch.id)}>
                    <td class="may-break">
                      <a href={`/watches/${w.watch.id}`}>{w.watch.label}</a>
                    </td>
                    <td class="spare-column may-break">{`${w.watch.subject_type}: ${w.watch.field}`}</td>
                    <td>{String(w.watch.lead_days)}</td>
                    <td class="next-work may-break" data-next={w.next.starts_on ?? ''}>
                      {datesWhole(nextWords(w, v.today))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p>
          <a href="/watches/new">Add a watch</a>
        </p>
      </section>
    </Page>
  );
}

export interface EntryFormView {
  desk: string;
  csrf: string;
  idem: string;
  /** The entry being edited; null for a new one. */
  id: number | null;
  /** The edited entry's name as saved, for the heading. */
  saved: string | null;
  form: FormState;
  zone: string;
  currency: string;
  arrangements: Array<{ id: number; name: string }>;
  unitTypes: string[];
}

function FormFrame(p: {
  v: EntryFormView;
  kind: 'arrangement' | 'unit' | 'watch';
  title: string;
  action: string;
  children?: unknown;
}): Markup {
  const { v } = p;
  const plural = p.kind === 'watch' ? 'watches' : `${p.kind}s`;
  const general = v.form.errors[''];
  return (
    <Page title={p.title} desk={v.desk} csrf={v.csrf}>
      <p>
        <a href="/arrangements">Arrangements, units and watches</a>
      </p>
      <h1>{p.title}</h1>
      <form method="post" action={p.action} data-once novalidate class="settings">
        <FormKeys csrf={v.csrf} idem={v.idem} />
        <DrawnFields drawn={v.form.drawn} />
        <FormProblem id="form-error" message={general} />
        {p.children}
        <button type="submit">{v.id === null ? `Add the ${p.kind}` : 'Save'}</button>
      </form>
      {v.id !== null ? (
        <p>
          <a href={`/${plural}/${v.id}/remove`}>{`Remove this ${p.kind}…`}</a>
        </p>
      ) : null}
    </Page>
  );
}

export function ArrangementFormPage(v: EntryFormView): Markup {
  const f = v.form;
  const p = 'arrangement';
  return (
    <FormFrame
      v={v}
      kind="arrangement"
      title={v.id === null ? 'Add an arrangement' : `Edit "${v.saved ?? ''}"`}
      action={v.id === null ? '/arrangements/new' : `/arrangements/${v.id}`}
    >
      <Field form={f} prefix={p} name="name" label="Name" hint="Such as High Street lease." />
      <Field form={f} prefix={p} name="counterparty" label="With whom (optional)" />
      <Field form={f} prefix={p} name="kind" label="Kind (optional)" hint="Such as lease, supply or insurance." />
      <Choice
        form={f}
        prefix={p}
        name="status"
        label="Status"
        options={ARRANGEMENT_STATUSES.map((s) => [s, s] as const)}
      />
      <div class="pair">
        <div>
          <Field form={f} prefix={p} name="starts_on" label="Starts on" type="date" />
        </div>
        <div>
          <Field form={f} prefix={p} name="ends_on" label="Ends on" type="date" />
        </div>
        <div>
          <Field form={f} prefix={p} name="renews_on" label="Renews on" type="date" />
        </div>
      </div>
      <div class="pair">
        <div>
          <Field
            form={f}
            prefix={p}
            name="amount"
            label="Amount (optional)"
            inputmode="decimal"
            hint="Such as 1250.00."
          />
        </div>
        <div class="narrow">
          <Field form={f} prefix={p} name="currency" label="Currency" hint={`Empty means ${v.currency}.`} />
        </div>
      </div>
      <Field form={f} prefix={p} name="contact_name" label="Contact name (optional)" />
      <Field form={f} prefix={p} name="contact_email" label="Contact email (optional)" type="email" />
    </FormFrame>
  );
}

export function UnitFormPage(v: EntryFormView): Markup {
  const f = v.form;
  const p = 'unit';
  return (
    <FormFrame
      v={v}
      kind="unit"
      title={v.id === null ? 'Add a unit' : `Edit "${v.saved ?? ''}"`}
      action={v.id === null ? '/units/new' : `/units/${v.id}`}
    >
      <Field form={f} prefix={p} name="name" label="Name" hint="Such as 12 High Street." />
      <Field
        form={f}
        prefix={p}
        name="type"
        label="Type"
        hint="Such as site or van; watches look at one type."
        list="unit-types"
      />
      <datalist id="unit-types">
        {v.unitTypes.map((t) => (
          <option value={t}></option>
        ))}
      </datalist>
      <Choice
        form={f}
        prefix={p}
        name="arrangement"
        label="Arrangement (optional)"
        options={[['', 'None'] as const, ...v.arrangements.map((a) => [String(a.id), a.name] as const)]}
      />
      <Lines
        form={f}
        prefix={p}
        name="fields"
        label="Columns, one a line"
        hint="Name, colon, value, such as lease_end: 2027-03-31. Dates are YYYY-MM-DD."
      />
    </FormFrame>
  );
}

export function WatchFormPage(v: EntryFormView): Markup {
  const f = v.form;
  const p = 'watch';
  return (
    <FormFrame
      v={v}
      kind="watch"
      title={v.id === null ? 'Add a watch' : `Edit "${v.saved ?? ''}"`}
      action={v.id === null ? '/watches/new' : `/watches/${v.id}`}
    >
      <Field form={f} prefix={p} name="label" label="Label" hint="Names the work, such as Lease renewal." />
      <div class="pair">
        <div>
          <Field form={f} prefix={p} name="subject_type" label={WATCH_LABELS.subject_type} list="unit-types" />
        </div>
        <div>
          <Field form={f} prefix={p} name="field" label={WATCH_LABELS.field} hint="Such as lease_end." />
        </div>
      </div>
      <datalist id="unit-types">
        {v.unitTypes.map((t) => (
          <option value={t}></option>
        ))}
      </datalist>
      <div class="pair">
        <div>
          <Field
            form={f}
            prefix={p}
            name="lead_days"
            label={WATCH_LABELS.lead_days}
            inputmode="numeric"
            hint="0 to 3650."
          />
        </div>
        <div>
          <Field
            form={f}
            prefix={p}
            name="every"
            label={`${WATCH_LABELS.every} (days, optional)`}
            inputmode="numeric"
          />
        </div>
      </div>
      <Field form={f} prefix={p} name="kind" label={WATCH_LABELS.kind} hint="Such as lease_renewal." />
      <Choice
        form={f}
        prefix={p}
        name="action"
        label={WATCH_LABELS.action}
        options={PERMISSION_CLASSES.map((c) => [c, c.replace('_', ' ')] as const)}
      />
      <Field form={f} prefix={p} name="priority" label="Priority" inputmode="numeric" hint="1 to 100." />
    </FormFrame>
  );
}

export function RemovePage(v: {
  desk: string;
  csrf: string;
  idem: string;
  kind: string;
  name: string;
  action: string;
  back: string;
  consequence: string;
}): Markup {
  return (
    <Page title={`Remove ${v.kind === 'arrangement' ? 'an' : 'a'} ${v.kind}`} desk={v.desk} csrf={v.csrf}>
      <h1>
        Remove the {v.kind} "{v.name}"?
      </h1>
      <p>{v.consequence}</p>
      <form method="post" action={v.action} data-once class="confirm">
        <FormKeys csrf={v.csrf} idem={v.idem} />
        <button type="submit" class="danger">
          Remove it
        </button>
        <a href={v.back} class="keep">
          Keep it
        </a>
      </form>
    </Page>
  );
}
