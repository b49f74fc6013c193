import { badRequest } from '../errors.ts';
import type { FormValues } from '../business/form.ts';
import type { ConnectionInput } from './save-connection.ts';
import { echoed } from '../text.ts';

// The mailbox as a form shows it and as the mailer reads it. "Security" is one choice on the
// form and two settings in the store: `secure` (TLS from the first byte) and `starttls: false`
// (never upgrade a plain connection).

export const SECURITY = ['starttls', 'tls', 'none'] as const;
export type Security = (typeof SECURITY)[number];

export function securityOf(settings: Record<string, unknown>): Security {
  if (settings.secure === true) return 'tls';
  if (settings.starttls === false) return 'none';
  return 'starttls';
}

const text = (v: string | undefined) => v?.trim() ?? '';

/** The inbox's security: TLS from the first byte, or none (a local test server). */
export const INBOX_SECURITY = ['tls', 'none'] as const;

/** The imap part as the form draws it: the password is never among them. */
export function inboxFields(settings: Record<string, unknown>): Record<string, string> {
  const imap = settings.imap;
  if (!imap || typeof imap !== 'object' || Array.isArray(imap))
    // Every field, the empty ones too: a form drawn with none says its inbox was empty as drawn.
    return { imap_host: '', imap_port: '993', imap_security: 'tls', imap_user: '', imap_mailbox: 'INBOX' };
  const i = imap as Record<string, unknown>;
  const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return {
    imap_host: str(i.host),
    imap_port: str(i.port),
    imap_security: i.secure === false ? 'none' : 'tls',
    imap_user: str(i.user),
    imap_mailbox: str(i.mailbox) || 'INBOX',
  };
}

/** The inbox fields besides its server, user and password, which say nothing until changed. */
const INBOX_EXTRAS = ['imap_port', 'imap_security', 'imap_mailbox'] as const;

/**
 * The imap part the form says. A form without the inbox fields leaves the stored part alone
 * (undefined); a form whose server, user and password are empty, and whose port, security and
 * folder are as drawn, removes it (null), so the desk stops reading. A port, security or folder
 * changed with no server is an inbox begun: its server and user are asked for (P-inbox-2). An
 * empty port takes the usual one for the security, an empty mailbox the INBOX.
 */
function inboxInput(
  form: FormValues,
  drawn: Record<string, string> | undefined,
): Record<string, unknown> | null | undefined {
  if (form.imap_host === undefined) return undefined;
  const security = text(form.imap_security) || 'tls';
  if (!(INBOX_SECURITY as readonly string[]).includes(security))
    throw badRequest(`"${echoed(security)}" is not a choice of security for the inbox.`, {
      field: 'imap_security',
      fields: { imap_security: 'Choose TLS or none.' },
    });
  const host = text(form.imap_host);
  const user = text(form.imap_user);
  const pass = form.imap_pass ?? '';
  if (!host && !user && !pass) {
    const none = inboxFields({});
    const begun = INBOX_EXTRAS.some((f) => {
      const typed = text(form[f]);
      return typed !== '' && typed !== (drawn?.[f] ?? none[f]);
    });
    if (!begun) return null;
  }
  const port = text(form.imap_port);
  const secure = security === 'tls';
  return {
    host,
    port: port === '' ? (secure ? 993 : 143) : /^\d{1,6}$/.test(port) ? Number(port) : port,
    secure,
    user: user || null,
    pass,
    mailbox: text(form.imap_mailbox) || 'INBOX',
  };
}

/**
 * What the mailbox form says, as the input of saveConnection. A blank password keeps the stored
 * one. `drawn` holds the values an edit form was drawn with.
 */
export function mailboxInput(form: FormValues, drawn?: Record<string, string>): ConnectionInput {
  const security = text(form.security) || 'starttls';
  if (!(SECURITY as readonly string[]).includes(security))
    throw badRequest(`"${echoed(security)}" is not a choice of security.`, {
      field: 'security',
      fields: { security: 'Choose how the desk talks to the server.' },
    });
  const port = text(form.port);
  const imap = inboxInput(form, drawn);
  return {
    provider: 'smtp',
    name: text(form.name),
    category: 'mail',
    auth_type: 'password',
    status: 'connected',
    config: {
      host: text(form.host),
      port: /^\d{1,6}$/.test(port) ? Number(port) : port,
      secure: security === 'tls',
      starttls: security !== 'none',
      user: text(form.user) || null,
      pass: form.pass ?? '',
      from: text(form.from) || null,
      ...(imap === undefined ? {} : { imap }),
    },
  };
}

/** What a portal sign-in form says; playbooks are sent as `playbook-ID` boxes. */
export function portalInput(form: FormValues): ConnectionInput {
  const playbooks = Object.keys(form)
    .map((k) => /^playbook-(\d{1,9})$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && form[m[0]] === 'yes')
    .map((m) => Number(m[1]));
  return {
    provider: text(form.portal),
    name: text(form.name),
    category: 'portal',
    auth_type: 'login',
    status: 'connected',
    config: { username: text(form.username), password: form.password ?? '' },
    playbooks,
  };
}
