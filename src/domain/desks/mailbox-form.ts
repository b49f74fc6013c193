import { badRequest } from '../errors.ts';
import type { FormValues } from '../business/form.ts';
import type { ConnectionInput } from './save-connection.ts';

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

/** What the mailbox form says, as the input of saveConnection. A blank password keeps the stored one. */
export function mailboxInput(form: FormValues): ConnectionInput {
  const security = text(form.security) || 'starttls';
  if (!(SECURITY as readonly string[]).includes(security))
    throw badRequest(`"${security}" is not a choice of security.`, {
      field: 'security',
      fields: { security: 'Choose how the desk talks to the server.' },
    });
  const port = text(form.port);
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
