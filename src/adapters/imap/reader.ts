import type { ImapFlow } from 'imapflow';
import { signInMasker } from '../../domain/mask.ts';
import type {
  IncomingMail,
  MailBatch,
  MailReader,
  MailboxSettings,
  ReadLimits,
  ReadPosition,
} from '../../domain/ports.ts';

// The real mail reader: one IMAP session a pass, the mailbox opened read-only, so reading
// never changes the owner's mail (flags included). Every step has its own time limit; a step
// that runs out closes the session and the pass stops with the step named. The messages read
// before a fault are still handed over, so one message the server cannot deliver does not hold
// back the replies before it.

class StepTimeout extends Error {}

/**
 * How slow a link may be before a message's download counts as stalled, in bytes a
 * millisecond (64 KB/s): a large message gets this much time on top of the step's limit.
 */
const SLOWEST_LINK = 64;

export async function step<T>(client: Pick<ImapFlow, 'close'>, what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const took = () =>
    new StepTimeout(
      `${what[0]?.toUpperCase()}${what.slice(1)} took longer than ${Math.round(ms / 1000)}s: the mail server was too slow or stopped answering.`,
    );
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(took());
      // After the time-out is said: closing fails the step's own command too, which must not
      // be what the pass reports (the desk closed the connection, not the server).
      client.close();
    }, ms);
  });
  try {
    return await Promise.race([work, limit]);
  } catch (err) {
    // The IMAP client gave up on a silent server first (its own idle limit) and closed the
    // connection: that is the server not answering, not the server closing it.
    if (silent.has(client)) throw took();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Connections the IMAP client ended because the server said nothing for too long. */
const silent = new WeakSet<object>();

/** What the IMAP client reports of its connection outside any step; a dropped socket is said through the step it breaks. */
export function heardFromClient(client: object, err: { code?: string } | undefined): void {
  if (err?.code === 'ETIMEOUT') silent.add(client);
}

/** The server's refusal or the network's fault in words a person can act on. */
export function readFault(err: unknown, s: MailboxSettings): string {
  // A server may quote the login it refused: the password goes no further than here.
  return signInMasker(s.user, s.pass)(faultWords(err, s));
}

function faultWords(err: unknown, s: MailboxSettings): string {
  if (err instanceof StepTimeout) return err.message;
  const e = err as { authenticationFailed?: boolean; responseText?: string; code?: string; message?: string };
  const where = `${s.host}:${s.port}`;
  if (e?.authenticationFailed)
    return `The mail server at ${where} refused the login${e.responseText ? `: ${e.responseText}` : '.'}`;
  // TLS asked of a server that answers in plain text (port 143, or one that wants STARTTLS):
  // OpenSSL's own words would name its source file, not what to change.
  if (e?.code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return `The mail server at ${where} did not answer over TLS; check the security setting (TLS or none) and the port.`;
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND' || e?.code === 'EHOSTUNREACH')
    return `The mail server at ${where} could not be reached (${e.code}).`;
  // imapflow says a connection cut before the greeting only in its message.
  if (
    e?.code === 'NoConnection' ||
    e?.code === 'EConnectionClosed' ||
    e?.code === 'ECONNRESET' ||
    /^unexpected close/i.test(e?.message ?? '')
  )
    return `The mail server at ${where} closed the connection before the pass finished.`;
  const said = e?.responseText || e?.message || String(err);
  return `Reading the mailbox at ${where} failed: ${said}`;
}

// The IMAP client and the mail parser load with the first mailbox read, not with the server.
async function clientFor(s: MailboxSettings, ms: number): Promise<ImapFlow> {
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: { user: s.user ?? '', pass: s.pass ?? '' },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: ms,
    greetingTimeout: ms,
    socketTimeout: ms,
  });
  // A dropped socket is reported through the step it breaks; the emitter must not throw.
  client.on('error', (err: { code?: string }) => heardFromClient(client, err));
  return client;
}

export class ImapReader implements MailReader {
  async check(s: MailboxSettings, ms: number): Promise<{ messages: number }> {
    const client = await clientFor(s, ms);
    try {
      await step(client, 'connecting and signing in', ms, client.connect());
      const box = await step(client, `opening ${s.mailbox}`, ms, client.mailboxOpen(s.mailbox, { readOnly: true }));
      await step(client, 'signing out', ms, client.logout()).catch(() => client.close());
      return { messages: box.exists };
    } catch (err) {
      client.close();
      throw new Error(readFault(err, s));
    }
  }

  async read(s: MailboxSettings, from: ReadPosition, limits: ReadLimits): Promise<MailBatch> {
    const ms = limits.timeoutMs;
    const client = await clientFor(s, ms);
    let uidValidity: string | null = null;
    let olderUpTo: number | undefined;
    const messages: IncomingMail[] = [];
    try {
      await step(client, 'connecting and signing in', ms, client.connect());
      // The last days are the desk's, counted from its own clock: with WITHIN, the IMAP client
      // would send them as seconds before the process's clock instead (YOUNGER), and a desk
      // whose clock is set (DESK_NOW) would reread a mailbox's whole past.
      client.capabilities.delete('WITHIN');
      const box = await step(client, `opening ${s.mailbox}`, ms, client.mailboxOpen(s.mailbox, { readOnly: true }));
      uidValidity = String(box.uidValidity);
      const same = uidValidity === from.uidValidity;
      let uids: number[] = [];
      if (!same) {
        const found = await step(
          client,
          'searching the mailbox',
          ms,
          client.search({ since: from.since }, { uid: true }),
        );
        uids = found || [];
      } else if (box.exists > 0 && (box.uidNext === undefined || box.uidNext > from.lastUid + 1)) {
        const found = await step(
          client,
          'searching the mailbox',
          ms,
          client.search({ uid: `${from.lastUid + 1}:*` }, { uid: true }),
        );
        uids = found || [];
      }
      const waiting = [...new Set(uids)].filter((u) => !same || u > from.lastUid).sort((a, b) => a - b);
      // Mail before the first of the last days is not read: not by this pass, nor by the ones
      // that go on from the last message it handles (none, when nothing is that recent).
      if (!same) olderUpTo = waiting.length > 0 ? waiting[0]! - 1 : Math.max(0, (box.uidNext ?? 1) - 1);
      uids = waiting.slice(0, limits.maxMessages);

      for (const uid of uids) {
        const meta = await step(
          client,
          `reading message ${uid}`,
          ms,
          client.fetchOne(String(uid), { size: true, internalDate: true }, { uid: true }),
        );
        if (!meta) continue;
        const big = (meta.size ?? 0) > limits.maxBytes;
        const got = await step(
          client,
          `reading message ${uid}`,
          big ? ms : ms + Math.ceil((meta.size ?? 0) / SLOWEST_LINK),
          client.fetchOne(String(uid), big ? { headers: true } : { source: true }, { uid: true }),
        );
        const raw = got ? (big ? got.headers : got.source) : undefined;
        const mail = raw ? await (await import('./parse.ts')).parseMail(raw, big) : null;
        if (mail) mail.arrivedAt = instantOf(meta.internalDate);
        messages.push({ uid, mail });
      }
      await step(client, 'signing out', ms, client.logout()).catch(() => client.close());
      return { uidValidity, messages, more: waiting.length > uids.length, fault: null, olderUpTo };
    } catch (err) {
      client.close();
      if (uidValidity === null) throw new Error(readFault(err, s));
      return { uidValidity, messages, more: false, fault: readFault(err, s), olderUpTo };
    }
  }
}

/** The server's date for a message as an ISO instant, or null when it gave none that reads. */
function instantOf(v: Date | string | undefined): string | null {
  if (v === undefined) return null;
  const t = v instanceof Date ? v : new Date(v);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}
