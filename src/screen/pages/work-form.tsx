import { isFinished, PERMISSION_CLASSES } from '../../domain/vocab.ts';
import type { Markup } from '../jsx-runtime.ts';
import { FieldError, FormKeys, Page } from './layout.tsx';
import { TITLE } from './permissions.tsx';

// Adding a row and editing one: the same fields, named as the CLI's `work add` takes them, over
// the same verbs. A refused field is said beside it and everything typed stays in the form.

export const FORM_FIELDS = [
  'title',
  'kind',
  'class',
  'due',
  'priority',
  'contact_name',
  'contact_email',
  'arrangement_id',
  'detail',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];
export type FormValues = Record<FormField, string>;

export interface WorkFormView {
  desk: string;
  zone: string;
  csrf: string;
  idem: string;
  /** Absent when adding; the row being edited otherwise, with the fault its last attempt left. */
  row?: { id: number; title: string; lastError: string | null };
  /** The "clear the fault" box was ticked when the form was sent back. */
  clearError?: boolean;
  values: FormValues;
  /**
   * The row's values as the edit form was first drawn, sent back with it: only what the owner
   * changed from them is saved, so a change another writer made meanwhile is kept.
   */
  drawn?: FormValues;
  arrangements: Array<{ id: number; name: string }>;
  /** What was refused: each mistake beside its field, or above the form when it names none. */
  errors?: Array<{ field?: string; message: string }>;
}

function isFormField(f: string | undefined): f is FormField {
  return (FORM_FIELDS as readonly string[]).includes(f ?? '');
}

function saidOf(v: WorkFormView, field: FormField): string | null {
  return v.errors?.find((e) => e.field === field)?.message ?? null;
}

/** What the aria attributes of an input say when its value was refused; the first one refused takes the focus. */
function invalid(v: WorkFormView, field: FormField): Record<string, string | boolean> {
  if (saidOf(v, field) === null) return {};
  const first = v.errors?.find((e) => isFormField(e.field))?.field === field;
  return { 'aria-invalid': 'true', 'aria-describedby': `work-${field}-error`, ...(first ? { autofocus: true } : {}) };
}

function Said(p: { v: WorkFormView; field: FormField }): Markup {
  return <FieldError id={`work-${p.field}-error`} message={saidOf(p.v, p.field)} />;
}

export function WorkFormPage(v: WorkFormView): Markup {
  const editing = v.row !== undefined;
  const heading = editing ? `Edit "${v.row!.title}"` : 'Add a row';
  const others = (v.errors ?? []).filter((e) => !isFormField(e.field)).map((e) => e.message);
  const other = others.length ? others.join(' ') : null;
  const val = v.values;
  return (
    <Page title={editing ? 'Edit a row' : 'Add a row'} desk={v.desk} csrf={v.csrf}>
      <p>
        <a href={editing ? `/work/${v.row!.id}` : '/'}>{editing ? 'Back to the row' : 'Back to the desk'}</a>
      </p>
      <h1>{heading}</h1>
      {other ? (
        <p class="field-error" role="alert" id="work-form-error">
          {other}
        </p>
      ) : null}
      <form method="post" action={editing ? `/work/${v.row!.id}/edit` : '/work'} data-once novalidate class="work-form">
        <FormKeys csrf={v.csrf} idem={v.idem} />
        {v.drawn ? FORM_FIELDS.map((f) => <input type="hidden" name={`drawn_${f}`} value={v.drawn![f]} />) : null}
        <label for="work-title">Title</label>
        <input id="work-title" name="title" type="text" required value={val.title} {...invalid(v, 'title')} />
        <Said v={v} field="title" />

        <div class="grid">
          <div>
            <label for="work-kind">Kind</label>
            <input id="work-kind" name="kind" type="text" value={val.kind} {...invalid(v, 'kind')} />
            <Said v={v} field="kind" />
          </div>
          <div>
            <label for="work-class">Permission class</label>
            <select id="work-class" name="class" aria-describedby="work-class-hint" {...invalid(v, 'class')}>
              <option value="" selected={val.class === ''}>
                None: always ask me
              </option>
              {PERMISSION_CLASSES.map((c) => (
                <option value={c} selected={val.class === c}>
                  {TITLE[c]}
                </option>
              ))}
            </select>
            <Said v={v} field="class" />
            <small id="work-class-hint">
              The desk does the work itself only when its class is on under Permissions.
            </small>
          </div>
        </div>

        <div class="grid">
          <div>
            <label for="work-due">Due date (optional, {v.zone})</label>
            <input id="work-due" name="due" type="date" value={val.due} {...invalid(v, 'due')} />
            <Said v={v} field="due" />
          </div>
          <div>
            <label for="work-priority">Priority (1 to 100, higher is more urgent)</label>
            <input
              id="work-priority"
              name="priority"
              type="number"
              inputmode="numeric"
              min="1"
              max="100"
              value={val.priority}
              {...invalid(v, 'priority')}
            />
            <Said v={v} field="priority" />
          </div>
        </div>

        <div class="grid">
          <div>
            <label for="work-contact_name">Contact name (optional)</label>
            <input
              id="work-contact_name"
              name="contact_name"
              type="text"
              autocomplete="off"
              value={val.contact_name}
              {...invalid(v, 'contact_name')}
            />
            <Said v={v} field="contact_name" />
          </div>
          <div>
            <label for="work-contact_email">Contact email (optional)</label>
            <input
              id="work-contact_email"
              name="contact_email"
              type="email"
              autocomplete="off"
              value={val.contact_email}
              {...invalid(v, 'contact_email')}
            />
            <Said v={v} field="contact_email" />
          </div>
        </div>

        <label for="work-arrangement_id">Arrangement (optional)</label>
        <select id="work-arrangement_id" name="arrangement_id" {...invalid(v, 'arrangement_id')}>
          <option value="" selected={val.arrangement_id === ''}>
            None
          </option>
          {v.arrangements.map((a) => (
            <option value={String(a.id)} selected={val.arrangement_id === String(a.id)}>
              {a.name}
            </option>
          ))}
        </select>
        <Said v={v} field="arrangement_id" />

        <label for="work-detail">Notes (optional)</label>
        <textarea id="work-detail" name="detail" rows="3" {...invalid(v, 'detail')}>
          {val.detail}
        </textarea>
        <Said v={v} field="detail" />

        {v.row?.lastError ? (
          // As `desk work edit --clear-error`: the fault is dropped, and the desk tries the row again.
          <label>
            <input type="checkbox" name="clear_error" value="yes" checked={v.clearError === true} />
            {`Clear the fault ("${v.row.lastError}"), so the desk tries this row again`}
          </label>
        ) : null}

        <button type="submit">{editing ? 'Save the changes' : 'Add the row'}</button>
      </form>
    </Page>
  );
}

export function CloseWorkPage(v: {
  desk: string;
  csrf: string;
  idem: string;
  row: { id: number; title: string; status: string };
  note: string;
  error?: string;
  /** Whether the refusal is of the note itself, which then takes the focus and names it. */
  noteRefused?: boolean;
}): Markup {
  // Finished meanwhile (from another tab or the terminal): nothing is left to close, so the page
  // offers no Close button, only what was typed and the way back to the row.
  const finished = isFinished(v.row.status);
  return (
    <Page title="Close a row" desk={v.desk} csrf={v.csrf}>
      <h1>{finished ? `"${v.row.title}" is ${v.row.status}` : `Close "${v.row.title}"?`}</h1>
      <p>
        {finished
          ? 'There is nothing left to close. What you typed is kept below, to add as a note on its page.'
          : `A closed row leaves the queue and the desk does nothing more on it. It is ${v.row.status} now; you can reopen it later from its page.`}
      </p>
      {v.error && !(v.noteRefused && !finished) ? (
        // Not the note's: what the press said, which the page's script focuses.
        <p class="field-error" role="alert" id="close-error" data-outcome>
          {v.error}
        </p>
      ) : null}
      {finished ? (
        <>
          <label for="close-note">What you typed</label>
          <textarea id="close-note" rows="3" readonly>
            {v.note}
          </textarea>
          <p>
            <a href={`/work/${v.row.id}`}>Back to the row</a>
          </p>
        </>
      ) : (
        <form method="post" action={`/work/${v.row.id}/close`} data-once>
          <FormKeys csrf={v.csrf} idem={v.idem} />
          <label for="close-note">Note (optional, added to the row)</label>
          {v.error && v.noteRefused ? (
            <>
              <p class="field-error" id="close-error">
                {v.error}
              </p>
              <textarea
                id="close-note"
                name="note"
                rows="3"
                aria-invalid="true"
                aria-describedby="close-error"
                autofocus
              >
                {v.note}
              </textarea>
            </>
          ) : (
            <textarea id="close-note" name="note" rows="3">
              {v.note}
            </textarea>
          )}
          <div class="confirm">
            <button type="submit" class="danger">
              Close the row
            </button>
            <a href={`/work/${v.row.id}`} class="keep">
              Keep it open
            </a>
          </div>
        </form>
      )}
    </Page>
  );
}
