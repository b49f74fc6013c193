import type { Markup } from '../jsx-runtime.ts';
import { FieldError } from './layout.tsx';

// One labelled field of a settings form: what was typed (or stored) drawn back, its hint and
// its error said beside it and tied to it for screen readers.

export interface FormState {
  /** Values to draw in the fields: what the owner typed, or what is stored. */
  values: Record<string, string>;
  /** Each field's error, by the field's name. */
  errors: Record<string, string>;
  /** Said in place of a field's hint, for a field that is not wrong but needs typing again. */
  notes?: Record<string, string>;
  /** The stored values an edit form was drawn with, sent back with it (screen/drawn.ts). */
  drawn?: Record<string, string>;
}

/** The values a form was drawn with, sent back with it so that only what the owner changed is saved. */
export function DrawnFields(p: { drawn: Record<string, string> | undefined }): Markup {
  return (
    <>
      {Object.entries(p.drawn ?? {}).map(([field, value]) => (
        <input type="hidden" name={`drawn_${field}`} value={value} />
      ))}
    </>
  );
}

export const blankForm = (values: Record<string, string> = {}): FormState => ({ values, errors: {} });

function described(id: string, hint: string | undefined, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function Field(p: {
  form: FormState;
  prefix: string;
  name: string;
  label: string;
  type?: string;
  hint?: string;
  autocomplete?: string;
  inputmode?: 'numeric' | 'decimal' | 'email' | 'text';
  list?: string;
  /** Never draws a value back: a secret the owner can only replace. */
  secret?: boolean;
}): Markup {
  const id = `${p.prefix}-${p.name}`;
  const error = p.form.errors[p.name];
  const note = p.form.notes?.[p.name];
  const hint = note ?? p.hint;
  return (
    <>
      <label for={id}>{p.label}</label>
      <input
        id={id}
        name={p.name}
        type={p.type ?? 'text'}
        value={p.secret ? '' : (p.form.values[p.name] ?? '')}
        autocomplete={p.autocomplete ?? 'off'}
        inputmode={p.inputmode}
        list={p.list}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described(id, hint, error)}
      />
      {hint ? (
        <small id={`${id}-hint`} class={note ? 'hint retype' : 'hint'}>
          {hint}
        </small>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}

export function Choice(p: {
  form: FormState;
  prefix: string;
  name: string;
  label: string;
  options: ReadonlyArray<readonly [value: string, words: string]>;
  hint?: string;
}): Markup {
  const id = `${p.prefix}-${p.name}`;
  const error = p.form.errors[p.name];
  const chosen = p.form.values[p.name] ?? '';
  return (
    <>
      <label for={id}>{p.label}</label>
      <select
        id={id}
        name={p.name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described(id, p.hint, error)}
      >
        {p.options.map(([value, words]) => (
          <option value={value} selected={value === chosen}>
            {words}
          </option>
        ))}
      </select>
      {p.hint ? (
        <small id={`${id}-hint`} class="hint">
          {p.hint}
        </small>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}

export function Lines(p: { form: FormState; prefix: string; name: string; label: string; hint?: string }): Markup {
  const id = `${p.prefix}-${p.name}`;
  const error = p.form.errors[p.name];
  return (
    <>
      <label for={id}>{p.label}</label>
      <textarea
        id={id}
        name={p.name}
        rows="4"
        spellcheck="false"
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described(id, p.hint, error)}
      >
        {p.form.values[p.name] ?? ''}
      </textarea>
      {p.hint ? (
        <small id={`${id}-hint`} class="hint">
          {p.hint}
        </small>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}

/** An error that belongs to no one field, above the form's fields. */
export function FormProblem(p: { id: string; message?: string }): Markup | null {
  return p.message ? (
    <p id={p.id} class="field-error" role="alert">
      {p.message}
    </p>
  ) : null;
}
