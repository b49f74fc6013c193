// Raw messages as a supplier's mail program, an out-of-office robot or a mail server's bounce
// would write them, for putting in the test mailbox.

export interface RawMail {
  from: string;
  to?: string;
  subject: string;
  date: Date;
  /** Made up when absent; null leaves the header out, as some mail programs do. */
  messageId?: string | null;
  inReplyTo?: string;
  references?: string;
  headers?: Record<string, string>;
  text?: string;
  html?: string;
  attachment?: { name: string; bytes: number };
}

let n = 0;

export function rawMail(m: RawMail): string {
  n += 1;
  const head = [
    `From: ${m.from}`,
    `To: ${m.to ?? 'Corner Bakery <desk@bakery.test>'}`,
    `Subject: ${m.subject}`,
    `Date: ${m.date.toUTCString()}`,
    ...(m.messageId === null
      ? []
      : [`Message-ID: ${m.messageId ?? `<reply-${n}-${Math.random().toString(36).slice(2)}@ovens.test>`}`]),
    ...(m.inReplyTo ? [`In-Reply-To: ${m.inReplyTo}`] : []),
    ...(m.references ? [`References: ${m.references}`] : []),
    ...Object.entries(m.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    'MIME-Version: 1.0',
  ];
  const bodyPart = m.html
    ? ['Content-Type: text/html; charset=utf-8', '', m.html]
    : ['Content-Type: text/plain; charset=utf-8', '', m.text ?? ''];
  if (!m.attachment) return [...head, ...bodyPart, ''].join('\r\n');
  const b = `b-${n}`;
  const data = Buffer.alloc(m.attachment.bytes, 7).toString('base64').replace(/.{76}/g, '$&\r\n');
  return [
    ...head,
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    `--${b}`,
    ...bodyPart,
    `--${b}`,
    `Content-Type: application/pdf; name="${m.attachment.name}"`,
    `Content-Disposition: attachment; filename="${m.attachment.name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    data,
    `--${b}--`,
    '',
  ].join('\r\n');
}

/** A delivery status report (RFC 3464) for a message that could not be delivered. */
export function bounceMail(m: {
  to: string;
  recipient: string;
  messageId: string;
  subject: string;
  date: Date;
  diagnostic: string;
}): string {
  const b = 'report-boundary';
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.bakery.test>',
    `To: ${m.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    `Date: ${m.date.toUTCString()}`,
    `Message-ID: <bounce-${Math.random().toString(36).slice(2)}@mx.bakery.test>`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${b}"`,
    '',
    `--${b}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Your message to ${m.recipient} could not be delivered.`,
    `--${b}`,
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.bakery.test',
    '',
    `Final-Recipient: rfc822; ${m.recipient}`,
    'Action: failed',
    'Status: 5.1.1',
    `Diagnostic-Code: smtp; ${m.diagnostic}`,
    '',
    `--${b}`,
    'Content-Type: text/rfc822-headers',
    '',
    `From: desk@bakery.test`,
    `To: ${m.recipient}`,
    `Subject: ${m.subject}`,
    `Message-ID: ${m.messageId}`,
    '',
    `--${b}--`,
    '',
  ].join('\r\n');
}
