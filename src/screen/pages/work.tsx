import { attachmentsLine, type WorkDetail } from '../../domain/work/get.ts';
import { APPROVE_LABEL } from '../../domain/work/derive.ts';
import { MAX_NOTES } from '../../domain/work/compose.ts';
import { SNOOZE_DEFAULT_DAYS, SNOOZE_MAX_DAYS, SNOOZE_MIN_DAYS } from '../../domain/work/snooze.ts';
import { isFinished, type PermissionClass } from '../../domain/vocab.ts';
import { TITLE } from './permissions.tsx';
import { plural, oneLine } from '../../domain/text.ts';
import type { Markup } from '../jsx-runtime.ts';
import { FieldError, FormKeys, Page, when } from './layout.tsx';
import { RowChanges } from './row-changes.tsx';
import { DrawnFields } from './form-fields.tsx';

// A row's page: what a person needs to know, the one action the API derives (its button says
// exactly the action's label), the forms every open row has, its messages and its timeline.

export interface RowView {
  desk: string;
  zone: string;
  csrf: string;
  detail: WorkDetail;
  arrangement: {
    id: number;
    name: string;
    /** The newest notes on it, newest first, at most NOTES_SHOWN: what each says, who wrote it, when. */
    notes: Array<{ body: string; actor: string; created_at: string }>;
    notesCount: number;
  } | null;
  /** The person the row is given to, if any. */
  assignee: string | null;
  /** Why each message approved and not sent did not go, by message id. */
  unsent: Map<number, string>;
  /** The row names somebody to write to, so the desk can draft its message. */
  canWrite: boolean;
  /** A fresh key per form, so each submit happens once. */
  keys: { action: string; snooze: string; complete: string; note: string; assign: string; reopen: string };
  /** The field a refused form named, and what to fix; the values typed are kept. */
  error?: {
    form: 'approve' | 'snooze' | 'complete' | 'note' | 'action' | 'assign' | 'reopen';
    field?: string;
    message: string;
    /** Every refused field with its words, when the verb said more than one. */
    fields?: Record<string, string>;
  };
  typed?: Record<string, string>;
  /**
   * A form drawn again with what was typed though none of it was refused: the owner's own edits
   * of a message that was changed meanwhile, kept for them (P-screen-work-7).
   */
  kept?: NonNullable<RowView['error']>['form'];
  /** What the last action said, shown at the top. */
  notice?: string;
  /** The last action was refused or failed: its notice is drawn as a refusal, not as done. */
  refused?: boolean;
  /** When the desk will next act on the row by itself, or why it will not. */
  onOwn?: string | null;
}

/** Which form carries the action; labels stay the API's, only the verb behind them is chosen here. */
export type ActionForm = 'approve' | 'run' | 'draft' | 'assign' | null;

export function actionForm(d: WorkDetail, assignee: string | null, canWrite: boolean): ActionForm {
  const a = d.work.action;
  if (!a) return null;
  // Drafting needs somebody to write to: with nobody, the label is said, not offered as a press
  // that can only be refused.
  const draft = canWrite ? 'draft' : null;
  switch (a.type) {
    case 'approve':
      return 'approve';
    case 'run':
      return 'run';
    case 'prepare':
      return draft;
    case 'own':
      // "Assign to me" takes the row; "Check with Sam" is a reminder, not a button that takes it.
      return assignee ? null : 'assign';
    case 'fix':
      // After a failed send, a message drafted again is approved here like any other.
      if (d.work.has_draft) return 'approve';
      return d.work.allowed ? 'run' : draft;
    case 'nudge':
      return d.work.allowed ? 'run' : draft;
    default:
      return null;
  }
}

/** Notes shown on a row's page; all of them are in the Record. */
export const NOTES_SHOWN = 5;

function NotesRead(p: { a: NonNullable<RowView['arrangement']>; zone: string }): Markup {
  const { a } = p;
  if (a.notesCount === 0) return <p class="meta">{`No notes on ${a.name} yet.`}</p>;
  const some = a.notesCount > a.notes.length;
  return (
    <>
      <h3 id="notes-title">{`Notes on ${a.name}`}</h3>
      <ol class="notes" aria-labelledby="notes-title">
        {a.notes.map((n) => (
          <li>
            <p class="body">{n.body}</p>
            <small class="meta">{`${n.actor}, ${when(n.created_at, p.zone)}`}</small>
          </li>
        ))}
      </ol>
      <p class="meta">
        {some
          ? `The newest ${a.notes.length} of ${a.notesCount} notes; the rest are in the `
          : 'Newest first; all of them are also in the '}
        <a href="/record">Record</a>.
      </p>
    </>
  );
}

function Field(p: { name: string; children?: unknown }): Markup {
  return (
    <>
      <dt>{p.name}</dt>
      <dd>{p.children}</dd>
    </>
  );
}

/** A finished row's date is only a date: it is no longer overdue, nor coming. */
function dueWords(days: number | null, date: string | null, finished: boolean): string {
  if (date === null || days === null) return 'No due date';
  if (finished) return date;
  if (days < 0) return `${date} (${plural(-days, 'day')} overdue)`;
  if (days === 0) return `${date} (today)`;
  return `${date} (in ${plural(days, 'day')})`;
}

function err(v: RowView, form: string, field?: string): string | null {
  if (!v.error || v.error.form !== form) return null;
  if (field !== undefined && v.error.fields?.[field]) return v.error.fields[field];
  return field === undefined || v.error.field === field ? v.error.message : null;
}

/**
 * What was typed into a field of `form`, when that form was the one refused or kept: the row's
 * page has several forms, and two of them have a field called `body`.
 */
function typedIn(v: RowView, form: NonNullable<RowView['error']>['form'], name: string): string | undefined {
  return v.error?.form === form || v.kept === form ? v.typed?.[name] : undefined;
}

function ApproveForm(p: { v: RowView; label: string }): Markup {
  const v = p.v;
  const draft = [...v.detail.messages].reverse().find((m) => m.status === 'drafted');
  const subjectError = err(v, 'approve', 'subject');
  const bodyError = err(v, 'approve', 'body');
  const otherError = err(v, 'approve') && !subjectError && !bodyError ? err(v, 'approve') : null;
  return (
    <form method="post" action={`/work/${v.detail.work.id}/approve`} data-once>
      <FormKeys csrf={v.csrf} idem={v.keys.action} />
      {/* What the page showed: a message changed since in what was left as shown is not sent. */}
      <DrawnFields
        drawn={{
          to: draft?.to ?? '',
          subject: typedIn(v, 'approve', 'drawn_subject') ?? oneLine(draft?.subject ?? ''),
          body: typedIn(v, 'approve', 'drawn_body') ?? draft?.body ?? '',
        }}
      />
      <p>
        To: <strong>{draft?.to ?? 'nobody'}</strong>
      </p>
      <label for="approve-subject">Subject</label>
      <input
        id="approve-subject"
        name="subject"
        type="text"
        value={typedIn(v, 'approve', 'subject') ?? oneLine(draft?.subject ?? '')}
        aria-invalid={subjectError ? 'true' : undefined}
        autofocus={subjectError ? true : undefined}
        aria-describedby={subjectError ? 'approve-subject-error' : undefined}
      />
      <FieldError id="approve-subject-error" message={subjectError} />
      <label for="approve-body">Message</label>
      <textarea
        id="approve-body"
        name="body"
        rows="10"
        aria-invalid={bodyError ? 'true' : undefined}
        autofocus={bodyError && !subjectError ? true : undefined}
        aria-describedby={bodyError ? 'approve-body-error' : undefined}
      >
        {typedIn(v, 'approve', 'body') ?? draft?.body ?? ''}
      </textarea>
      <FieldError id="approve-body-error" message={bodyError} />
      <FieldError id="approve-error" message={otherError} />
      <button type="submit">{p.label}</button>
    </form>
  );
}

function ActionPanel(p: { v: RowView }): Markup {
  const v = p.v;
  const w = v.detail.work;
  const a = w.action;
  if (!a) return <p>Nothing is left to do on this row: it is {w.status}.</p>;
  const form = actionForm(v.detail, v.assignee, v.canWrite);
  const path = form === 'run' ? 'run' : form === 'draft' ? 'draft' : form === 'assign' ? 'assign' : null;
  return (
    <>
      <p>{a.hint}</p>
      {form === 'approve' ? <ApproveForm v={v} label={a.type === 'approve' ? a.label : APPROVE_LABEL} /> : null}
      {path ? (
        <form method="post" action={`/work/${w.id}/${path}`} data-once>
          <FormKeys csrf={v.csrf} idem={v.keys.action} />
          <button type="submit">{a.label}</button>
        </form>
      ) : null}
      {form === null ? (
        <p>
          <strong>{a.label}</strong>
          {/* A label with no press says what would make one: a message needs somebody to go to. */}
          {!v.canWrite && (a.type === 'prepare' || a.type === 'fix' || a.type === 'nudge') ? (
            <>
              {' '}
              — nobody is named to write to, so no message can be prepared here.{' '}
              <a href={`/work/${w.id}/edit`}>Give the row a contact</a> to have one drafted.
            </>
          ) : null}
        </p>
      ) : null}
      {w.last_error ? (
        <p id="fault-cleared-how">
          Once you have dealt with the fault, <a href={`/work/${w.id}/edit`}>clear it when you edit the row</a>, and the
          desk takes the row up again.
        </p>
      ) : null}
      <FieldError id="action-error" message={err(v, 'action')} />
    </>
  );
}

export function RowPage(v: RowView): Markup {
  const w = v.detail.work;
  const open = !isFinished(w.status);
  const snoozeError = err(v, 'snooze');
  const noteError = err(v, 'note');
  // The note is the complete form's only field: a refusal of it is tied to it, others are the form's.
  const completeNoteError = err(v, 'complete', 'note');
  const draft = [...v.detail.messages].reverse().find((m) => m.status === 'drafted');
  return (
    <Page title={w.title} desk={v.desk} csrf={v.csrf}>
      <p>
        <a href="/">Back to the desk</a>
      </p>
      <h1>{w.title}</h1>
      {v.notice ? (
        <p class={v.refused ? 'notice refused' : 'notice'} role={v.refused ? 'alert' : 'status'}>
          {v.notice}
        </p>
      ) : null}
      <section aria-labelledby="needs-title">
        <h2 id="needs-title">What it needs</h2>
        <ActionPanel v={v} />
        {v.onOwn ? (
          <p class="meta" id="on-own">
            {v.onOwn}
          </p>
        ) : null}
        {draft && actionForm(v.detail, v.assignee, v.canWrite) !== 'approve' ? (
          <details>
            <summary>The prepared message</summary>
            <p>
              To: {draft.to ?? 'nobody'} · Subject: {draft.subject ?? ''}
            </p>
            <p class="body">{draft.body}</p>
          </details>
        ) : null}
      </section>

      <section aria-labelledby="fields-title">
        <h2 id="fields-title">About this row</h2>
        <dl class="fields">
          <Field name="Status">{w.status}</Field>
          <Field name="Kind">{w.kind}</Field>
          <Field name="Due">{dueWords(w.days_to_due, w.due_date, isFinished(w.status))}</Field>
          <Field name="Priority">{String(w.priority)}</Field>
          <Field name="Permission">
            {w.permission
              ? `${TITLE[w.permission as PermissionClass] ?? w.permission}: ${w.allowed ? 'the desk may do it' : 'needs you'}`
              : 'Unclassified: needs you'}
          </Field>
          {w.waiting_on ? (
            <Field name="Waiting on">{`${w.waiting_on}${w.days_waiting !== null ? ` for ${plural(w.days_waiting, 'day')}` : ''}`}</Field>
          ) : null}
          {w.last_error ? <Field name="Last error">{w.last_error}</Field> : null}
          {v.arrangement ? <Field name="Arrangement">{v.arrangement.name}</Field> : null}
          {w.detail ? (
            <Field name="Details">
              <span class="body">{w.detail}</span>
            </Field>
          ) : null}
        </dl>
        {/* An open row shows the notes under the form that adds one. */}
        {v.arrangement && !open ? <NotesRead a={v.arrangement} zone={v.zone} /> : null}
      </section>

      {open ? (
        <section aria-labelledby="other-title">
          <h2 id="other-title">Other things you can do</h2>
          <div class="grid-forms">
            <form method="post" action={`/work/${w.id}/snooze`} data-once novalidate>
              <FormKeys csrf={v.csrf} idem={v.keys.snooze} />
              <label for="snooze-days">Snooze for how many days</label>
              <input
                id="snooze-days"
                name="days"
                type="number"
                inputmode="numeric"
                min={String(SNOOZE_MIN_DAYS)}
                max={String(SNOOZE_MAX_DAYS)}
                value={typedIn(v, 'snooze', 'days') ?? String(SNOOZE_DEFAULT_DAYS)}
                aria-invalid={snoozeError ? 'true' : undefined}
                autofocus={snoozeError ? true : undefined}
                aria-describedby={snoozeError ? 'snooze-days-error' : undefined}
              />
              <FieldError id="snooze-days-error" message={snoozeError} />
              <button type="submit" class="secondary">
                Snooze
              </button>
            </form>
            {draft ? (
              // Marking done sends the prepared message (the complete verb): with one waiting,
              // sending is the approve form's to do, and finishing without it is closing.
              <p id="complete-instead">
                A message is prepared, so this row is finished by{' '}
                {actionForm(v.detail, v.assignee, v.canWrite) === 'approve' || !w.action
                  ? 'approving it above'
                  : `"${w.action.label}" above, which sends it`}
                , or without sending it by <a href={`/work/${w.id}/close`}>closing the row</a>.
              </p>
            ) : (
              <form method="post" action={`/work/${w.id}/complete`} data-once>
                <FormKeys csrf={v.csrf} idem={v.keys.complete} />
                <label for="complete-note">Note on finishing the row (optional)</label>
                <textarea
                  id="complete-note"
                  name="note"
                  rows="2"
                  aria-invalid={completeNoteError ? 'true' : undefined}
                  autofocus={completeNoteError ? true : undefined}
                  aria-describedby={completeNoteError ? 'complete-error' : undefined}
                >
                  {typedIn(v, 'complete', 'note') ?? ''}
                </textarea>
                <FieldError id="complete-error" message={err(v, 'complete')} />
                <button type="submit" class="secondary">
                  Mark done
                </button>
              </form>
            )}
            {v.arrangement ? (
              <form method="post" action={`/arrangements/${v.arrangement.id}/notes`} data-once>
                <FormKeys csrf={v.csrf} idem={v.keys.note} />
                <input type="hidden" name="work" value={String(w.id)} />
                <label for="note-body">{`Note on ${v.arrangement.name}`}</label>
                <textarea
                  id="note-body"
                  name="body"
                  rows="2"
                  aria-invalid={noteError ? 'true' : undefined}
                  autofocus={noteError ? true : undefined}
                  aria-describedby={noteError ? 'note-body-hint note-body-error' : 'note-body-hint'}
                >
                  {typedIn(v, 'note', 'body') ?? ''}
                </textarea>
                <small id="note-body-hint">
                  {`Messages the desk prepares on ${v.arrangement.name} quote its ${MAX_NOTES} newest notes: write only what the people they go to may read.`}
                </small>
                <FieldError id="note-body-error" message={noteError} />
                <button type="submit" class="secondary">
                  Add note
                </button>
              </form>
            ) : null}
          </div>
          {/* Under the forms, across the page, rather than in the note form's column alone. */}
          {v.arrangement ? <NotesRead a={v.arrangement} zone={v.zone} /> : null}
        </section>
      ) : null}

      <RowChanges
        id={w.id}
        csrf={v.csrf}
        finished={!open}
        assignee={v.assignee}
        keys={{ assign: v.keys.assign, reopen: v.keys.reopen }}
        {...(v.error?.form === 'assign' || v.error?.form === 'reopen'
          ? { error: { form: v.error.form, message: v.error.message } }
          : {})}
        {...(typedIn(v, 'assign', 'assignee') !== undefined ? { typedAssignee: typedIn(v, 'assign', 'assignee') } : {})}
      />

      <section aria-labelledby="messages-title">
        <h2 id="messages-title">Messages</h2>
        {v.detail.messages.length === 0 ? <p>No messages yet.</p> : null}
        {v.detail.messages.map((m) => (
          <article>
            <header>
              <strong>{m.subject ?? '(no subject)'}</strong>
              <br />
              <small>
                {m.direction === 'outbound' ? `To ${m.to ?? 'nobody'}` : `From ${m.actor}`} · {m.status} ·{' '}
                {when(m.sent_at ?? m.created_at, v.zone)}
              </small>
            </header>
            {/* The reason says itself whether the message did not go or may have gone. */}
            {v.unsent.has(m.id) ? <p class="field-error">{v.unsent.get(m.id)}</p> : null}
            <p class="body">{m.body}</p>
            {attachmentsLine(m.attachments) !== null ? (
              <p>
                <small>{attachmentsLine(m.attachments)}</small>
              </p>
            ) : null}
          </article>
        ))}
      </section>

      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <ol class="timeline">
          {v.detail.timeline.map((t) => (
            <li>
              <time datetime={t.at}>{when(t.at, v.zone)}</time> {t.text}
            </li>
          ))}
        </ol>
      </section>
    </Page>
  );
}
