import { signInMasker } from '../../domain/mask.ts';
import { senderOf, senderParts } from '../../domain/desks/smtp-settings.ts';
import { echoed } from '../../domain/text.ts';
import type { Mailer, MailConnection, OutgoingMail, SendResult } from '../../domain/ports.ts';

// The real mailer: one SMTP conversation per message, through the desk's own mailbox.
// A server that accepts the message makes it sent; a refusal, a connection that fails or a
// server that does not answer within the mail timeout is reported as not accepted, with why.
// A server that stops answering, or closes the connection, once the message has been handed
// over (its 354 answer to DATA) may already hold it, so that is said to be not known rather than
// not sent. Before that nothing can have gone: such a failure is `unreachable` alone, which a
// caller may retry. A conversation past its time is cut off, so it cannot deliver afterwards.

const NO_ANSWER: SendResult = {
  accepted: false,
  unknown: true,
  unreachable: true,
  reason:
    "The mail server did not answer in time, so whether the message went is not known. Look in the mailbox's sent mail, or ask the recipient, before sending it again.",
};

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

const CLOSED_AFTER_DATA: SendResult = {
  ...NO_ANSWER,
  reason:
    "The mail server closed the connection after the message was handed over, so whether it went is not known. Look in the mailbox's sent mail, or ask the recipient, before sending it again.",
};

const NO_STARTTLS: SendResult = {
  accepted: false,
  unreachable: true,
  reason:
    "The mail server does not offer a secure connection (STARTTLS), which the mailbox's security setting asks for, so nothing was sent and the password was not given; check the server's port, or choose None for a local test server.",
};

function failure(err: unknown, handedOver: boolean): SendResult {
  const e = err as { code?: string; command?: string; responseCode?: number; response?: string; message?: string };
  // The server answered STARTTLS with a refusal: it does not offer it (or something on the way
  // took the offer out). Nothing has been said but the greeting, and it is the mailbox's setting
  // or its server to mend, not the message.
  if (e.code === 'ETLS' && e.command === 'STARTTLS' && typeof e.responseCode === 'number') return NO_STARTTLS;
  // A refused sign-in is said as what it is, so the owner looks at the mailbox's password, not
  // at the message. It is a refusal, not an outage: waiting will not mend it, so the row needs a look.
  if (e.code === 'EAUTH') {
    const said = (e.response ?? e.message ?? '').trim();
    return {
      accepted: false,
      refusedMailbox: true,
      reason: `The mail server refused the desk's sign-in${said ? ` (${said})` : ''}, so nothing was sent; check the mailbox's user name and password.`,
    };
  }
  if (e.code === 'EENVELOPE' || (typeof e.responseCode === 'number' && e.responseCode >= 400)) {
    const said = (e.response ?? e.message ?? '').trim();
    // A 4xx answer is the server's "not now" (busy, greylisting, a full queue; RFC 5321 4.2.1):
    // it took nothing, and the same message may go later, as when it could not be reached.
    if (typeof e.responseCode === 'number' && e.responseCode < 500)
      return {
        accepted: false,
        unreachable: true,
        reason: `The mail server asked for the message to be sent later${said ? ` (${said})` : ''}, so nothing was sent.`,
      };
    // Refused at its greeting or at the sender: the mailbox's own, not this message's (but a
    // 552 to the sender is the message's size, RFC 1870).
    if (e.command === 'CONN' || (e.command === 'MAIL FROM' && e.responseCode !== 552))
      return {
        accepted: false,
        refusedMailbox: true,
        reason: `The mail server refused the desk's mailbox${said ? ` (${said})` : ''}, so nothing was sent; check the mailbox's settings, its From address above all.`,
      };
    return { accepted: false, reason: `The mail server refused the message${said ? `: ${said}` : ''}.` };
  }
  const timedOut = e.code === 'ETIMEDOUT' || (e.code === 'ESOCKET' && /timeout/i.test(e.message ?? ''));
  if (handedOver) return timedOut ? NO_ANSWER : CLOSED_AFTER_DATA;
  if (timedOut)
    return {
      accepted: false,
      unreachable: true,
      reason: `The mail server did not answer before the message was handed over, so nothing was sent: ${e.message ?? String(err)}`,
    };
  return { accepted: false, unreachable: true, reason: notReachedWhy(e) };
}

/** The conversation ran out of time: cut off before the message was handed over, or after. */
function outOfTime(handedOver: boolean): SendResult {
  if (handedOver) return NO_ANSWER;
  return {
    accepted: false,
    unreachable: true,
    reason:
      'The mail server took too long to get as far as taking the message, so the desk stopped and nothing was sent.',
  };
}

/** Why the conversation failed before the message was handed over, in words the owner can act on. */
function notReachedWhy(e: { code?: string; message?: string }): string {
  const said = e.message ?? '';
  // A server that answers, but not as SMTP does: most often a port that is not the mail server's.
  if (e.code === 'EPROTOCOL')
    return "The mail server answered, but not as a mail server does, so nothing was sent; check the server's port, and whether it expects a secure connection from the start.";
  if (/closed unexpectedly/i.test(said))
    return 'The mail server closed the connection before it took the message, so nothing was sent.';
  if (/certificate|\bCERT_/i.test(said))
    return `The mail server's certificate was not accepted (${said.trim()}), so nothing was sent; check the server's name, or its certificate.`;
  if (e.code === 'ETLS' || /\bSSL\b|\bTLS\b|ssl3_/i.test(said))
    return "The secure connection to the mail server could not be set up, so nothing was sent; check the server's port and the mailbox's security setting.";
  return `The mail server could not be reached: ${unreachableWhy(said)}`;
}

/**
 * Why a connection was not made, in words the owner can act on, where the socket's own words
 * ("connect ECONNREFUSED 127.0.0.1:2525") name the system call.
 */
function unreachableWhy(said: string): string {
  const refused = /\bECONNREFUSED (\S+)/.exec(said);
  if (refused)
    return `the connection to ${refused[1]} was refused; check the server's name and port, and that it is running.`;
  const unknown = /\b(?:ENOTFOUND|EAI_AGAIN) (\S+)/.exec(said);
  if (unknown) return `no server named ${unknown[1]} could be found; check its name.`;
  const noRoute = /\bE(?:HOST|NET)UNREACH (\S+)/.exec(said);
  if (noRoute) return `the network has no way to ${noRoute[1]}.`;
  return said;
}

/**
 * Whether a plain connection must upgrade with STARTTLS before anything is said: unless the
 * mailbox says none, or does not say and its server is this machine (loopback, where no one on a
 * network listens in).
 */
export function mustUpgrade(host: string, starttls: unknown): boolean {
  if (starttls === true) return true;
  if (starttls === false) return false;
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return !(h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h));
}

export class SmtpMailer implements Mailer {
  constructor(private readonly opts: { timeoutMs: number }) {}

  async send(connection: MailConnection, mail: OutgoingMail): Promise<SendResult> {
    if (connection.provider !== 'smtp') {
      return {
        accepted: false,
        reason: `The mailbox uses "${connection.provider}", which this desk cannot send through; connect an SMTP mailbox.`,
      };
    }
    const c = connection.config;
    const host = text(c.host);
    if (!host) return { accepted: false, reason: 'The mailbox has no server address (host) set.' };
    const port = Number(c.port ?? 587);
    const secure = c.secure === true;
    const user = text(c.user);
    const pass = typeof c.pass === 'string' ? c.pass : undefined;
    const from = senderOf(c);
    if (!from) return { accepted: false, reason: 'The mailbox has no sender address (from) set.' };
    // A business file's mailbox may leave its sender to a user that is no address (P-mail-10):
    // sent so, the message would go with no From.
    const sender = senderParts(from);
    if (!sender)
      return {
        accepted: false,
        refusedMailbox: true,
        reason: `The mailbox's sender "${echoed(from)}" is not an email address, so nothing was sent; set its From to one, such as Shop <shop@example.com>.`,
      };

    const t = this.opts.timeoutMs;
    // Whether the server took the message's text: its go-ahead to DATA, read off the client's own
    // log of the conversation; nothing else of the log is kept. A server that hangs up on DATA
    // itself was never given the message.
    let askedData = false;
    let handedOver = false;
    const heard = (meta: unknown, line: unknown) => {
      const tnx = (meta as { tnx?: unknown } | null)?.tnx;
      if (tnx === 'client' && line === 'DATA') askedData = true;
      // Any answer the client goes on after (354, or the 250 some servers give) and it sends the text.
      else if (askedData && tnx === 'server' && typeof line === 'string' && /^[23]/.test(line)) handedOver = true;
    };
    const quiet = () => undefined;
    const logger = { level: quiet, trace: quiet, debug: heard, info: quiet, warn: quiet, error: quiet, fatal: quiet };
    // Loaded on the first message, so commands that send nothing never load it.
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      host,
      port,
      secure,
      // STARTTLS is the mailbox's security unless it says none (`starttls: false`, a local test
      // server): a server that does not offer it is refused, not spoken to in plain text, or
      // anyone on the way could strip the offer and read the password and the message. A
      // mailbox on this machine that does not say (the demo's, a file's) upgrades when offered:
      // nothing it says crosses a network.
      ignoreTLS: c.starttls === false,
      requireTLS: !secure && mustUpgrade(host, c.starttls),
      auth: user ? { user, pass } : undefined,
      connectionTimeout: t,
      greetingTimeout: t,
      socketTimeout: t,
      dnsTimeout: t,
      logger,
      debug: true,
    });
    // The whole conversation is bounded too: a server may answer each step slowly but never
    // finish. At the deadline the connection is cut, so nothing goes after the desk has said.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), t + 1000);
    try {
      return await transport
        .sendMail({
          signal: stop.signal,
          // Both as parts, and the envelope as given: the mailer reads no address out of text.
          from: sender,
          to: { name: '', address: mail.to },
          envelope: { from: sender.address, to: [mail.to] },
          subject: mail.subject,
          text: mail.text,
          messageId: mail.messageId,
          inReplyTo: mail.inReplyTo,
          references: mail.references,
        })
        .then((info): SendResult => {
          const rejected = (info.rejected ?? []).map(String);
          if ((info.accepted ?? []).length === 0) {
            return {
              accepted: false,
              reason: `The mail server refused the message${rejected.length ? ` for ${rejected.join(', ')}` : ''}.`,
            };
          }
          return { accepted: true, messageId: info.messageId ?? null, response: info.response ?? null };
        })
        .catch((err: unknown) => (stop.signal.aborted ? outOfTime(handedOver) : failure(err, handedOver)))
        // A server may quote the sign-in it refused: the password goes no further than here.
        .then((r): SendResult => (r.accepted ? r : { ...r, reason: signInMasker(user, pass)(r.reason) }));
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  }
}
