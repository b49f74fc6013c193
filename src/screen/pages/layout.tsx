import { raw, type Markup } from '../jsx-runtime.ts';

// The frame of every page: one stylesheet, htmx and the screen's own script, all from this
// server (the Content-Security-Policy allows no other source and no inline script).

export interface Frame {
  title: string;
  /** The desk's name once signed in; absent on the sign-in pages. */
  desk?: string;
  csrf?: string;
  children?: unknown;
}

export function Page(p: Frame): Markup {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta
            name="htmx-config"
            content='{"includeIndicatorStyles":false,"allowScriptTags":false,"allowEval":false}'
          />
          <title>{p.desk ? `${p.title} · ${p.desk}` : p.title}</title>
          <link rel="stylesheet" href="/assets/pico.css" />
          <link rel="stylesheet" href="/assets/screen.css" />
          <script src="/assets/htmx.js" defer></script>
          <script src="/assets/screen.js" defer></script>
        </head>
        <body>
          <a class="skip" href="#main">
            Skip to the content
          </a>
          <header class="container">
            <nav aria-label="Desk">
              <ul>
                <li>
                  <strong class="may-break">{p.desk ?? 'Desk'}</strong>
                </li>
              </ul>
              {p.desk ? (
                <ul>
                  <li>
                    <a href="/">Desk</a>
                  </li>
                  <li>
                    <a href="/record">Record</a>
                  </li>
                  <li>
                    <a href="/permissions">Permissions</a>
                  </li>
                  <li>
                    <a href="/on-its-own">On its own</a>
                  </li>
                  <li>
                    <a href="/keys">Keys</a>
                  </li>
                  <li>
                    <a href="/connections">Connections</a>
                  </li>
                  <li>
                    <a href="/arrangements">Arrangements</a>
                  </li>
                  <li>
                    <a href="/business">Business file</a>
                  </li>
                  <li>
                    <form method="post" action="/sign-out" class="inline">
                      <input type="hidden" name="_csrf" value={p.csrf ?? ''} />
                      <button type="submit" class="secondary outline">
                        Sign out
                      </button>
                    </form>
                  </li>
                </ul>
              ) : null}
            </nav>
          </header>
          <main id="main" class="container">
            {p.children}
          </main>
        </body>
      </html>
    </>
  );
}

/** A form's hidden fields: the CSRF token and, for a write, the key that makes it happen once. */
export function FormKeys(p: { csrf: string; idem?: string; id?: string }): Markup {
  return (
    <>
      <input type="hidden" name="_csrf" value={p.csrf} />
      {p.idem ? <input type="hidden" name="idempotency_key" value={p.idem} id={p.id} /> : null}
    </>
  );
}

/** What the form just sent did, said once on the page it led to. */
export function Notice(p: { text?: string }): Markup | null {
  return p.text ? (
    <p class="notice" role="status">
      {p.text}
    </p>
  ) : null;
}

/** A field's error, said beside it and tied to it for screen readers. */
export function FieldError(p: { id: string; message?: string | null }): Markup {
  return p.message ? (
    <small id={p.id} class="field-error" role="alert">
      {p.message}
    </small>
  ) : (
    raw('')
  );
}

export function when(iso: string | null, zone: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
