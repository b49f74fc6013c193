import type { Markup } from '../jsx-runtime.ts';
import { OWNER } from '../../domain/vocab.ts';
import { FieldError, FormKeys } from './layout.tsx';

// The owner's own changes to a row, as `desk work edit/assign/close/reopen` makes them: edit
// its fields, give it to a person or take it back, close it (after a confirmation page), or
// bring a finished row back to the queue.

export interface RowChangesView {
  id: number;
  csrf: string;
  finished: boolean;
  assignee: string | null;
  keys: { assign: string; reopen: string };
  error?: { form: 'assign' | 'reopen'; message: string };
  typedAssignee?: string;
}

export function RowChanges(v: RowChangesView): Markup {
  const assignError = v.error?.form === 'assign' ? v.error.message : null;
  return (
    <section aria-labelledby="changes-title" class="row-changes">
      <h2 id="changes-title">Change this row</h2>
      {/* A reopen refused because the row is open again is said here, above the open row's forms. */}
      <FieldError id="reopen-error" message={v.error?.form === 'reopen' ? v.error.message : null} />
      {v.finished ? (
        <form method="post" action={`/work/${v.id}/reopen`} data-once>
          <FormKeys csrf={v.csrf} idem={v.keys.reopen} />
          <p>It is finished. Reopen it to bring it back to the queue.</p>
          <button type="submit">Reopen</button>
        </form>
      ) : (
        <div class="grid-forms">
          <div>
            <p>
              <a href={`/work/${v.id}/edit`}>Edit the row</a>
            </p>
            <p>
              <a href={`/work/${v.id}/close`}>Close the row…</a>
            </p>
          </div>
          <form method="post" action={`/work/${v.id}/assignee`} data-once novalidate>
            <FormKeys csrf={v.csrf} idem={v.keys.assign} />
            <p id="assignee-now">
              {v.assignee === OWNER ? (
                'Yours: you took it on, and the desk prepares what it can and stops.'
              ) : v.assignee ? (
                <>
                  With <strong>{v.assignee}</strong>: the desk prepares it and stops.
                </>
              ) : (
                'Not given to anybody: the desk works it within its permissions.'
              )}
            </p>
            <label for="assignee">Give it to a person</label>
            <input
              id="assignee"
              name="assignee"
              type="text"
              autocomplete="off"
              value={v.typedAssignee ?? ''}
              placeholder="e.g. Sam"
              aria-invalid={assignError ? 'true' : undefined}
              autofocus={assignError ? true : undefined}
              aria-describedby={assignError ? 'assignee-error' : undefined}
            />
            <FieldError id="assignee-error" message={assignError} />
            <div class="confirm">
              <button type="submit" name="to" value="person" class="secondary">
                Assign
              </button>
              {v.assignee ? (
                <button type="submit" name="to" value="desk" class="secondary outline">
                  Hand it back to the desk
                </button>
              ) : null}
            </div>
          </form>
        </div>
      )}
    </section>
  );
}
