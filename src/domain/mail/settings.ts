import type { MailboxSettings } from '../ports.ts';

// The `imap` part of a mail connection's stored config, with its defaults: port 993 over TLS
// unless told otherwise, and the INBOX. Null when the connection has no imap part to read.

function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function mailboxSettings(config: Record<string, unknown>): MailboxSettings | null {
  const imap = obj(config.imap);
  if (!imap || typeof imap.host !== 'string' || imap.host.trim() === '') return null;
  const secure = typeof imap.secure === 'boolean' ? imap.secure : imap.port === undefined || Number(imap.port) === 993;
  const port =
    Number.isInteger(Number(imap.port)) && imap.port !== null && imap.port !== undefined
      ? Number(imap.port)
      : secure
        ? 993
        : 143;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    host: imap.host.trim(),
    port,
    secure,
    user: text(imap.user),
    pass: text(imap.pass),
    mailbox: text(imap.mailbox)?.trim() || 'INBOX',
  };
}
