import type { Markup } from '../jsx-runtime.ts';
import { FormKeys, Page } from './layout.tsx';

// The business file page: download the desk as a business file, or, on a desk that holds
// nothing yet, read one in. A file with mistakes is refused whole, with every mistake listed.

export interface BusinessView {
  desk: string;
  slug: string;
  csrf: string;
  importKey: string;
  /** What the desk holds already, in words; null when it is empty and may take a file. */
  holds: string | null;
  notice?: string;
  /** `from`: the field the refused text came from, which is marked and takes the focus. */
  error?: { message: string; list: string[]; from: 'file' | 'text' };
  typed?: string;
}

function Errors(p: { error: NonNullable<BusinessView['error']> }): Markup {
  // A syntax error goes on with the lines it is on and a caret under the place: kept as laid out.
  const [said, ...excerpt] = p.error.message.split('\n');
  return (
    <div id="import-errors" class="import-errors" role="alert">
      <p>{said}</p>
      {excerpt.length > 0 ? <pre>{excerpt.join('\n')}</pre> : null}
      {p.error.list.length > 1 ? (
        <ul>
          {p.error.list.map((line) => (
            <li>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function BusinessPage(v: BusinessView): Markup {
  const described = v.error ? 'import-errors' : undefined;
  return (
    <Page title="Business file" desk={v.desk} csrf={v.csrf}>
      <h1>Business file</h1>
      <p>
        The whole desk in one YAML file: its settings, permissions, connections, arrangements, units, watches and every
        row, open and finished. <code>desk import</code> reads it back into an equal desk.
      </p>
      {v.notice ? (
        <p class="notice" role="status">
          {v.notice}
        </p>
      ) : null}
      <section aria-labelledby="download-title">
        <h2 id="download-title">Download</h2>
        <p>
          Passwords and other secrets of the connections are left out (the file says which), and API keys are never in
          it. Dates are written as they stand today.
        </p>
        <form method="get" action="/business/download">
          <button type="submit">Download the business file</button>
        </form>
      </section>
      <section aria-labelledby="import-title">
        <h2 id="import-title">Import</h2>
        {v.holds === null ? (
          <>
            <p>
              This desk is empty, so it can take a business file. Everything in the file is read in at once, or nothing
              is: a file with mistakes is refused with every mistake listed. The desk keeps its address ({v.slug}); its
              name, timezone and currency become the file's, and so do the rails the file gives (working hours, daily
              cap, pause): one it leaves out stays as the desk has it.
            </p>
            {v.error ? <Errors error={v.error} /> : null}
            <form method="post" action="/business/import" enctype="multipart/form-data" data-once novalidate>
              <FormKeys csrf={v.csrf} idem={v.importKey} />
              <label for="business-upload">The file (YAML or JSON)</label>
              <input
                id="business-upload"
                name="file"
                type="file"
                accept=".yaml,.yml,.json,application/yaml,application/json,text/yaml"
                aria-invalid={v.error?.from === 'file' ? 'true' : undefined}
                aria-describedby={described}
              />
              <label for="business-text">Or paste it here</label>
              <textarea
                id="business-text"
                name="text"
                rows="12"
                spellcheck="false"
                aria-invalid={v.error?.from === 'text' ? 'true' : undefined}
                aria-describedby={described}
              >
                {/* A browser drops one newline straight after <textarea>, so one is given for it to drop. */}
                {`\n${v.typed ?? ''}`}
              </textarea>
              <button type="submit">Import</button>
            </form>
          </>
        ) : (
          <p id="import-refused">
            This desk already holds {v.holds}, so it cannot take a business file: importing reads only into an empty
            desk, so that nothing on it is mixed up or lost. To bring a file in as a new desk, run{' '}
            <code>desk import FILE --slug NEW-SLUG</code>.
          </p>
        )}
      </section>
    </Page>
  );
}
