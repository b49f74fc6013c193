import type { ConnectionSettings } from '../../domain/desks/connection-settings.ts';
import type { Markup } from '../jsx-runtime.ts';
import { Choice, DrawnFields, Field, type FormState } from './form-fields.tsx';
import { FormKeys, Notice, Page } from './layout.tsx';

// The connections page: the mailbox the desk sends through, with a test message, the portal
// sign-ins playbooks use, and the other services the desk has on record. A secret is never drawn, not even as dots: the field is empty
// and says whether one is stored; left empty, the stored one stays.

export interface ConnectionsView {
  desk: string;
  csrf: string;
  mailbox: ConnectionSettings | null;
  signIns: ConnectionSettings[];
  /** Services that are neither the mailbox nor a sign-in (accounting, files, …), shown as they stand. */
  others: ConnectionSettings[];
  playbooks: Array<{ id: number; name: string; connection_id: number | null }>;
  /** A fresh idempotency key per form, by form name. */
  keys: Record<string, string>;
  /** Each form's state by form name (mailbox, test, portal-new, portal-ID); absent draws what is stored. */
  forms: Record<string, FormState>;
  notice?: string;
  /** The last test message's outcome. */
  tested?: { ok: boolean; said: string };
  /** The last inbox check's outcome. */
  checked?: { ok: boolean; said: string };
}

const SECURITY_WORDS = [
  ['starttls', 'STARTTLS (usually port 587)'],
  ['tls', 'TLS from the start (port 465)'],
  ['none', 'None (a local test server only)'],
] as const;

function secretHint(stored: boolean, what: string, server = false): string {
  return stored
    ? `A ${what} is stored. Leave this empty to keep it${server ? ' (a new server, port, security or user needs it typed again)' : ''}, or type a new one to replace it.`
    : `No ${what} is stored.`;
}

const INBOX_SECURITY_WORDS = [
  ['tls', 'TLS (usually port 993)'],
  ['none', 'None (a local test server only)'],
] as const;

function Mailbox(p: { v: ConnectionsView }): Markup {
  const { v } = p;
  const box = v.mailbox;
  const form = v.forms.mailbox ?? { values: {}, errors: {} };
  const test = v.forms.test ?? { values: {}, errors: {} };
  return (
    <section aria-labelledby="mailbox-title">
      <h2 id="mailbox-title">Mailbox</h2>
      <p>The desk sends the messages you approve through this mail server, from this address.</p>
      {box?.sendFault ? (
        <p class="field-error" role="alert" id="send-fault" data-standing>
          {`The desk's last message through this mailbox did not get through, at ${box.sendFault.at}. ${box.sendFault.reason}${/[.!?]$/.test(box.sendFault.reason) ? '' : '.'} What the desk sends on its own waits and goes out once the server answers. Correct the settings below, or use "Send a test message" once it is back.`}
        </p>
      ) : null}
      {box?.readFault ? (
        <p class="field-error" role="alert" id="inbox-fault" data-standing>
          {`The desk could not read this mailbox's inbox when it last tried: ${box.readFault} Replies are not being read, so rows waiting on an answer stay waiting; messages still go out. Correct the inbox settings below, then use "Check the inbox".`}
        </p>
      ) : null}
      <form method="post" action="/connections/mailbox" data-once novalidate class="settings">
        <FormKeys csrf={v.csrf} idem={v.keys.mailbox} />
        <DrawnFields drawn={form.drawn} />
        {box ? <input type="hidden" name="id" value={String(box.id)} /> : null}
        <Field form={form} prefix="mailbox" name="name" label="Name" hint='For you, such as "Shop mailbox".' />
        <div class="pair">
          <div>
            <Field form={form} prefix="mailbox" name="host" label="Mail server (SMTP host)" />
          </div>
          <div class="narrow">
            <Field form={form} prefix="mailbox" name="port" label="Port" inputmode="numeric" />
          </div>
        </div>
        <Choice form={form} prefix="mailbox" name="security" label="Security" options={SECURITY_WORDS} />
        <Field form={form} prefix="mailbox" name="user" label="User name (optional)" autocomplete="off" />
        <Field
          form={form}
          prefix="mailbox"
          name="pass"
          label="Password"
          type="password"
          autocomplete="new-password"
          secret
          hint={secretHint(box?.stored.includes('pass') ?? false, 'password', true)}
        />
        <Field
          form={form}
          prefix="mailbox"
          name="from"
          label="From address"
          hint="Who the messages come from, such as Corner Bakery <owner@bakery.example>."
        />
        <fieldset class="inbox">
          <legend>Where replies are read (IMAP)</legend>
          <p class="hint">
            The desk reads the replies to what it sent from this mailbox, and nothing else. Leave these empty and the
            desk does not read mail.
          </p>
          <div class="pair">
            <div>
              <Field form={form} prefix="mailbox" name="imap_host" label="Inbox server (IMAP host)" />
            </div>
            <div class="narrow">
              <Field form={form} prefix="mailbox" name="imap_port" label="Inbox port" inputmode="numeric" />
            </div>
          </div>
          <Choice
            form={form}
            prefix="mailbox"
            name="imap_security"
            label="Inbox security"
            options={INBOX_SECURITY_WORDS}
          />
          <Field form={form} prefix="mailbox" name="imap_user" label="Inbox user name" autocomplete="off" />
          <Field
            form={form}
            prefix="mailbox"
            name="imap_pass"
            label="Inbox password"
            type="password"
            autocomplete="new-password"
            secret
            hint={secretHint(box?.stored.includes('imap.pass') ?? false, 'password for the inbox', true)}
          />
          <Field
            form={form}
            prefix="mailbox"
            name="imap_mailbox"
            label="Folder"
            hint="The folder replies arrive in, usually INBOX."
          />
        </fieldset>
        <button type="submit">{box ? 'Save the mailbox' : 'Add the mailbox'}</button>
      </form>
      {box ? (
        <section aria-labelledby="test-title" class="test-mail">
          <h3 id="test-title">Send a test message</h3>
          {v.tested ? (
            <p
              id="test-outcome"
              class={v.tested.ok ? 'notice' : 'field-error'}
              role={v.tested.ok ? 'status' : 'alert'}
              data-outcome
            >
              {v.tested.said}
            </p>
          ) : null}
          <form method="post" action="/connections/mailbox/test#test-title" data-once novalidate>
            <FormKeys csrf={v.csrf} idem={v.keys.test} />
            <input type="hidden" name="id" value={String(box.id)} />
            <Field
              form={test}
              prefix="test"
              name="to"
              label="Send it to"
              type="email"
              hint="Empty sends it to the mailbox's own address."
            />
            <button type="submit" class="secondary">
              Send a test message
            </button>
          </form>
        </section>
      ) : null}
      {box ? (
        <section aria-labelledby="inbox-title" class="test-mail">
          <h3 id="inbox-title">Check the inbox</h3>
          {v.checked ? (
            <p
              id="inbox-outcome"
              class={v.checked.ok ? 'notice' : 'field-error'}
              role={v.checked.ok ? 'status' : 'alert'}
              data-outcome
            >
              {v.checked.said}
            </p>
          ) : null}
          <form method="post" action="/connections/mailbox/check-inbox#inbox-title" data-once novalidate>
            <FormKeys csrf={v.csrf} idem={v.keys.inbox} />
            <input type="hidden" name="id" value={String(box.id)} />
            <p class="hint">Signs in with the saved inbox settings and opens the folder without changing anything.</p>
            <button type="submit" class="secondary">
              Check the inbox
            </button>
          </form>
          <p>
            <a href={`/connections/${box.id}/remove`}>Remove the mailbox…</a>
          </p>
        </section>
      ) : null}
    </section>
  );
}

function SignInForm(p: { v: ConnectionsView; c: ConnectionSettings | null }): Markup {
  const { v, c } = p;
  const name = c ? `portal-${c.id}` : 'portal-new';
  const form = v.forms[name] ?? { values: {}, errors: {} };
  const boxes = v.playbooks;
  const error = form.errors.playbooks;
  return (
    <form
      method="post"
      action={c ? `/connections/portals/${c.id}` : '/connections/portals'}
      data-once
      novalidate
      class="settings"
    >
      <FormKeys csrf={v.csrf} idem={v.keys[name]} />
      <DrawnFields drawn={form.drawn} />
      <Field form={form} prefix={name} name="name" label="Name" hint='For you, such as "Tax portal".' />
      <Field
        form={form}
        prefix={name}
        name="portal"
        label="Portal"
        hint="A short name for the site, such as gov-portal."
      />
      <Field form={form} prefix={name} name="username" label="User name" />
      <Field
        form={form}
        prefix={name}
        name="password"
        label="Password"
        type="password"
        autocomplete="new-password"
        secret
        hint={
          c
            ? secretHint(c.stored.includes('password'), 'password')
            : 'Playbooks type it where they say {{secret.password}}.'
        }
      />
      {boxes.length > 0 ? (
        <fieldset aria-describedby={error ? `${name}-playbooks-error` : undefined}>
          <legend>Playbooks that sign in with it</legend>
          {boxes.map((b) => (
            <label>
              <input
                type="checkbox"
                name={`playbook-${b.id}`}
                value="yes"
                checked={form.values[`playbook-${b.id}`] === 'yes'}
              />
              {b.name}
            </label>
          ))}
          {error ? (
            <small id={`${name}-playbooks-error`} class="field-error" role="alert">
              {error}
            </small>
          ) : null}
        </fieldset>
      ) : null}
      <button type="submit">{c ? 'Save the sign-in' : 'Add the sign-in'}</button>
    </form>
  );
}

export function ConnectionsPage(v: ConnectionsView): Markup {
  return (
    <Page title="Connections" desk={v.desk} csrf={v.csrf}>
      <h1>Connections</h1>
      <p>
        What the desk uses on your behalf. Passwords are kept by the desk and never shown again, not even as dots: to
        keep one, leave its field empty.
      </p>
      <Notice text={v.notice} />
      <Mailbox v={v} />
      <section aria-labelledby="portals-title">
        <h2 id="portals-title">Portal sign-ins</h2>
        <p>A playbook signs in to a portal with one of these when the desk files or books something there.</p>
        {v.signIns.map((c) => (
          <article id={`sign-in-${c.id}`} aria-labelledby={`sign-in-${c.id}-title`}>
            <h3 id={`sign-in-${c.id}-title`}>{c.name}</h3>
            <p class="meta">
              {c.playbooks.length
                ? `Used by ${c.playbooks.map((p) => p.name).join(', ')}.`
                : 'No playbook signs in with it yet.'}
            </p>
            <SignInForm v={v} c={c} />
            <p>
              <a href={`/connections/${c.id}/remove`} aria-label={`Remove the sign-in ${c.name}…`}>
                Remove…
              </a>
            </p>
          </article>
        ))}
        <article aria-labelledby="new-sign-in-title">
          <h3 id="new-sign-in-title">Add a sign-in</h3>
          <SignInForm v={v} c={null} />
        </article>
      </section>
      <Others others={v.others} />
    </Page>
  );
}

/** What a service's status means to the owner; the desk authorises none of them itself. */
export function serviceState(status: string): string {
  if (status === 'connected') return 'Connected.';
  if (status === 'pending') return 'Pending: it has not been authorised with the service yet.';
  if (status === 'error') return 'Not working: the service refused the desk when it was last used.';
  return `Status: ${status}.`;
}

function Others({ others }: { others: ConnectionSettings[] }): Markup | null {
  if (others.length === 0) return null;
  return (
    <section aria-labelledby="others-title">
      <h2 id="others-title">Other services</h2>
      <p>
        Services on record for the desk, from a business file or an earlier set-up. Each is authorised with the service
        itself, not here; the desk shows how each stands.
      </p>
      {others.map((c) => (
        <article id={`service-${c.id}`} aria-labelledby={`service-${c.id}-title`}>
          <h3 id={`service-${c.id}-title`}>{c.name}</h3>
          <p class="meta">{`${c.provider}, for ${c.category}`}</p>
          <p id={`service-${c.id}-state`} class={c.status === 'error' ? 'field-error' : undefined}>
            {serviceState(c.status)}
          </p>
          <p>
            <a href={`/connections/${c.id}/remove`} aria-label={`Remove the service ${c.name}…`}>
              Remove…
            </a>
          </p>
        </article>
      ))}
    </section>
  );
}
