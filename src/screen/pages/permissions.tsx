import type { ClassCounts, PermissionSummary } from '../../domain/desks/permissions.ts';
import { PERMISSION_CLASSES, UNGRANTABLE, type PermissionClass } from '../../domain/vocab.ts';
import type { Markup } from '../jsx-runtime.ts';
import { FieldError, FormKeys, Page } from './layout.tsx';
import { plural } from '../../domain/text.ts';

// The permissions page: one switch per class the owner may grant, with the open rows it covers
// (the counts GET /permissions gives). Money and sign are drawn switched off and cannot be
// switched; the reason is said beside them.

export interface PermissionsView {
  desk: string;
  csrf: string;
  summary: PermissionSummary;
  granted: ReadonlySet<string>;
  /** A fresh key per switch, so each press happens once. */
  keys: Record<string, string>;
  /** Why money and sign stay off, by class. */
  reasons: Record<string, string>;
  /** Paused, the desk does nothing on its own whatever is switched on. */
  paused: boolean;
  notice?: string;
  error?: { cls: string; message: string };
}

const WHAT: Record<PermissionClass, string> = {
  reach_out: 'Write to people to ask, confirm or arrange.',
  chase: 'Remind people about what they owe or promised.',
  file: 'Submit returns and forms on portals.',
  commit: 'Book, order or accept on your behalf.',
  money: 'Pay or move money.',
  sign: 'Sign agreements.',
};

export const TITLE: Record<PermissionClass, string> = {
  reach_out: 'Reach out',
  chase: 'Chase',
  file: 'File',
  commit: 'Commit',
  money: 'Money',
  sign: 'Sign',
};

function rows(n: number): string {
  return plural(n, 'row');
}

function total(c: ClassCounts): number {
  return c.doing + c.asking + c.covered;
}

function coverage(c: ClassCounts, paused: boolean): string {
  if (total(c) === 0) return 'No open rows in this class.';
  const parts = [
    c.doing ? `${rows(c.doing)} ${paused ? 'the desk would do once resumed' : 'the desk does'}` : null,
    c.asking ? `${rows(c.asking)} waiting for you` : null,
    c.covered ? `${rows(c.covered)} out with somebody` : null,
  ].filter(Boolean);
  return `${rows(total(c))} open: ${parts.join(', ')}.`;
}

function onWords(paused: boolean): string {
  return paused
    ? 'The desk would do this work without asking, but it is paused.'
    : 'The desk does this work without asking.';
}

function Switch(p: { v: PermissionsView; cls: PermissionClass }): Markup {
  const { v, cls } = p;
  const on = v.granted.has(cls);
  const reason = v.reasons[cls];
  const error = v.error?.cls === cls ? v.error.message : null;
  const counts = v.summary.classes[cls];
  return (
    <article class="permission" id={`class-${cls}`}>
      <h3 id={`title-${cls}`}>{TITLE[cls]}</h3>
      <p class="meta">{WHAT[cls]}</p>
      <p class="covers" data-rows={String(total(counts))}>
        {coverage(counts, v.paused)}
      </p>
      {reason ? (
        <p class="switch-row">
          <button
            type="button"
            role="switch"
            aria-checked="false"
            aria-labelledby={`title-${cls}`}
            aria-describedby={`why-${cls}`}
            // Reachable by the keyboard, so the reason it cannot be switched is read out beside it.
            aria-disabled="true"
            class="switch secondary"
          >
            Off
          </button>
          <span id={`why-${cls}`}>{reason}</span>
        </p>
      ) : (
        <form method="post" action="/permissions" class="switch-row" data-once>
          <FormKeys csrf={v.csrf} idem={v.keys[cls] ?? ''} />
          <input type="hidden" name="class" value={cls} />
          <input type="hidden" name="granted" value={on ? 'no' : 'yes'} />
          <button
            type="submit"
            id={`switch-${cls}`}
            role="switch"
            aria-checked={on ? 'true' : 'false'}
            aria-labelledby={`title-${cls}`}
            aria-describedby={`state-${cls}${error ? ` error-${cls}` : ''}`}
            class={on ? 'switch' : 'switch secondary'}
          >
            {on ? 'On' : 'Off'}
          </button>
          <span id={`state-${cls}`}>{on ? onWords(v.paused) : 'The desk asks you first.'}</span>
          <FieldError id={`error-${cls}`} message={error} />
        </form>
      )}
    </article>
  );
}

export function PermissionsPage(v: PermissionsView): Markup {
  const grantable = PERMISSION_CLASSES.filter((c) => !UNGRANTABLE.includes(c));
  return (
    <Page title="Permissions" desk={v.desk} csrf={v.csrf}>
      <h1>Permissions</h1>
      <p>What the desk may do on its own. With a class switched off, the desk prepares the work and asks you.</p>
      {v.paused ? (
        <p id="paused-note">
          <strong>The desk is paused: it does none of this work on its own</strong>, whatever is switched on here, until
          you resume it under <a href="/on-its-own">On its own</a>.
        </p>
      ) : null}
      {v.notice ? (
        <p class="notice" role="status">
          {v.notice}
        </p>
      ) : null}
      {v.error && !grantable.includes(v.error.cls as PermissionClass) ? (
        <p class="field-error" role="alert" id="permissions-error">
          {v.error.message}
        </p>
      ) : null}
      <h2>Yours to grant</h2>
      <div class="permissions">
        {grantable.map((cls) => (
          <Switch v={v} cls={cls} />
        ))}
      </div>
      <h2>Always yours to decide</h2>
      <div class="permissions">
        {UNGRANTABLE.map((cls) => (
          <Switch v={v} cls={cls} />
        ))}
      </div>
    </Page>
  );
}
