import type { KeySummary } from '../../domain/keys/create.ts';
import { lastDayOf } from '../../domain/keys/expiry.ts';
import type { Markup } from '../jsx-runtime.ts';
import { FieldError, FormKeys, Page, when } from './layout.tsx';

// The keys page: make a key for a program, see the desk's keys (never the keys themselves),
// and revoke one after a confirmation page. The whole key is on the page that made it, once.

export interface KeysView {
  desk: string;
  zone: string;
  csrf: string;
  keys: KeySummary[];
  createKey: string;
  /** The key just made: the only time its whole text is drawn. */
  made?: { name: string; prefix: string; key: string | null };
  notice?: string;
  error?: { field: 'name' | 'expires'; message: string };
  typed?: { name?: string; expires?: string };
}

function state(k: KeySummary, zone: string, now: string): string {
  if (k.revoked_at) return `Revoked ${when(k.revoked_at, zone)}`;
  if (k.expires_at && k.expires_at <= now) return 'Expired';
  return 'Works';
}

function Made(p: { made: NonNullable<KeysView['made']> }): Markup {
  const m = p.made;
  return (
    <section class="made-key" aria-labelledby="made-title">
      <h2 id="made-title">Key "{m.name}" made</h2>
      {m.key ? (
        <>
          <p>
            Copy it now and give it to the program. The desk keeps only a fingerprint of it, so this is the only time it
            is shown.
          </p>
          <label for="new-key">The whole key</label>
          <div class="copy-row">
            <input id="new-key" type="text" readonly value={m.key} spellcheck="false" autocomplete="off" autofocus />
            <button type="button" class="copy" data-copy="new-key" aria-describedby="copy-state">
              Copy
            </button>
          </div>
          <small id="copy-state" role="status" aria-live="polite"></small>
        </>
      ) : (
        <p>
          This key ({m.prefix}…) was made by an earlier press of this form; its whole text was shown then and is never
          shown again. If it was not copied, revoke it and make another.
        </p>
      )}
    </section>
  );
}

export function KeysPage(v: KeysView & { now: string }): Markup {
  const nameError = v.error?.field === 'name' ? v.error.message : null;
  const expiresError = v.error?.field === 'expires' ? v.error.message : null;
  return (
    <Page title="Keys" desk={v.desk} csrf={v.csrf}>
      <h1>Keys</h1>
      <p>A key lets a program use the desk's API. Revoke a key and the program is refused from its next request.</p>
      {v.notice ? (
        <p class="notice" role="status">
          {v.notice}
        </p>
      ) : null}
      {v.made ? <Made made={v.made} /> : null}
      <section aria-labelledby="new-title">
        <h2 id="new-title">Make a key</h2>
        <form method="post" action="/keys" data-once novalidate>
          <FormKeys csrf={v.csrf} idem={v.createKey} />
          <label for="key-name">Name: who will hold it</label>
          <input
            id="key-name"
            name="name"
            type="text"
            placeholder="e.g. accounts sync"
            value={v.typed?.name ?? ''}
            aria-invalid={nameError ? 'true' : undefined}
            aria-describedby={nameError ? 'key-name-error' : undefined}
          />
          <FieldError id="key-name-error" message={nameError} />
          <label for="key-expires">Last day it works (optional, {v.zone})</label>
          <input
            id="key-expires"
            name="expires"
            type="date"
            value={v.typed?.expires ?? ''}
            aria-invalid={expiresError ? 'true' : undefined}
            aria-describedby={expiresError ? 'key-expires-error' : undefined}
          />
          <FieldError id="key-expires-error" message={expiresError} />
          <button type="submit">Make the key</button>
        </form>
      </section>
      <section aria-labelledby="list-title">
        <h2 id="list-title">The desk's keys</h2>
        {v.keys.length === 0 ? (
          <p>No keys yet.</p>
        ) : (
          <div class="table-wrap">
            <table id="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" class="wide-only">
                    Starts with
                  </th>
                  <th scope="col" class="roomy-only">
                    Created
                  </th>
                  <th scope="col" class="roomy-only">
                    Last used
                  </th>
                  <th scope="col" class="spare-column">
                    Last day
                  </th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span class="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {v.keys.map((k) => (
                  <tr data-key-id={String(k.id)}>
                    <td class="may-break">{k.name}</td>
                    <td class="wide-only">
                      <code>{k.prefix}…</code>
                    </td>
                    <td class="roomy-only">{when(k.created_at, v.zone)}</td>
                    <td class="roomy-only">{k.last_used_at ? when(k.last_used_at, v.zone) : 'Never'}</td>
                    <td class="nowrap spare-column">{k.expires_at ? lastDayOf(v.zone, k.expires_at) : 'No end'}</td>
                    <td>{state(k, v.zone, v.now)}</td>
                    <td>
                      {k.revoked_at ? null : (
                        <a href={`/keys/${k.id}/revoke`} aria-label={`Revoke ${k.name} (${k.prefix}…)`}>
                          Revoke…
                        </a>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Page>
  );
}

export function RevokeKeyPage(v: { desk: string; zone: string; csrf: string; idem: string; key: KeySummary }): Markup {
  const k = v.key;
  return (
    <Page title="Revoke a key" desk={v.desk} csrf={v.csrf}>
      <h1>Revoke "{k.name}"?</h1>
      <p>
        The key starting <code>{k.prefix}…</code>, made {when(k.created_at, v.zone)}, last used{' '}
        {k.last_used_at ? when(k.last_used_at, v.zone) : 'never'},{' '}
        {k.expires_at ? `working through ${lastDayOf(v.zone, k.expires_at)}` : 'with no last day'}. A program using it
        is refused from its next request, and a revoked key cannot be brought back.
      </p>
      <form method="post" action={`/keys/${k.id}/revoke`} data-once class="confirm">
        <FormKeys csrf={v.csrf} idem={v.idem} />
        <button type="submit" class="danger">
          Revoke the key
        </button>
        <a href="/keys" class="keep">
          Keep it
        </a>
      </form>
    </Page>
  );
}
