import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on loopback for the mail tests. It accepts, refuses every recipient
// (550), asks for every recipient or message to be sent later (451), takes the message and
// never answers, answers it a second late, or takes it and closes the connection without
// answering, and records exactly what it accepted.

export type SmtpMode = 'accept' | 'refuse' | 'later' | 'later-data' | 'hang' | 'slow' | 'drop';

function answer(code: number, text: string): Error {
  const err = new Error(text) as Error & { responseCode: number };
  err.responseCode = code;
  return err;
}

/** How late the `slow` mode answers the end of DATA. */
export const SLOW_ANSWER_MS = 1_000;

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as it arrived: headers and body. */
  raw: string;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMail[];
  /** How many times a client tried to sign in, with the right password or not. */
  signIns(): number;
  setMode(mode: SmtpMode): void;
  /**
   * Holds the answer to the next message's end of DATA: `taken` settles once the server has
   * the whole message, and the answer (250, or 451 in `later-data`) goes only at `answer()`.
   */
  holdNextAnswer(): { taken: Promise<void>; answer: () => void };
  close(): Promise<void>;
}

/**
 * A loopback SMTP server; `port` pins it (the demo's mailbox is 127.0.0.1:2525), else any free port.
 * With `auth`, a client must sign in with exactly that user and password (535 otherwise).
 */
export async function startSmtpServer(
  opts: {
    mode?: SmtpMode;
    port?: number;
    auth?: { user: string; pass: string };
    /** A refused sign-in quotes what it was given, as some servers do. */
    echoAuth?: boolean;
  } = {},
): Promise<TestSmtp> {
  let mode: SmtpMode = opts.mode ?? 'accept';
  const received: ReceivedMail[] = [];
  let hold: ((answer: () => void) => void) | null = null;
  let signIns = 0;
  const sockets = new Set<Socket>();
  const server = new SMTPServer({
    authOptional: !opts.auth,
    // Loopback only: the password may cross in plain text.
    allowInsecureAuth: Boolean(opts.auth),
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      signIns++;
      const want = opts.auth;
      if (want && (auth.username !== want.user || auth.password !== want.pass)) {
        const said = opts.echoAuth
          ? `Authentication failed for ${auth.username} ${auth.password}`
          : 'Invalid username or password';
        const err = new Error(said) as Error & { responseCode: number };
        err.responseCode = 535;
        return cb(err);
      }
      cb(null, { user: auth.username ?? 'desk' });
    },
    onRcptTo(address, _session, cb) {
      if (mode === 'refuse') return cb(answer(550, `Mailbox ${address.address} unavailable`));
      if (mode === 'later') return cb(answer(451, 'Try again later'));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (mode === 'hang') return; // never answers the end of DATA
        // A held answer goes when the test lets it, a refusal as an acceptance.
        const held = hold;
        hold = null;
        if (mode === 'later-data') {
          const refuse = () => cb(answer(451, 'Queue full, try again later'));
          return held ? held(refuse) : refuse();
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        if (held) held(() => cb());
        else if (mode === 'slow') setTimeout(() => cb(), SLOW_ANSWER_MS);
        else if (mode === 'drop') {
          for (const s of sockets) if (s.remotePort === session.remotePort) s.destroy();
        } else cb();
      });
    },
  });
  server.server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    signIns: () => signIns,
    setMode(m) {
      mode = m;
    },
    holdNextAnswer() {
      let release: () => void = () => undefined;
      let answered = false;
      const taken = new Promise<void>((resolve) => {
        hold = (answer) => {
          release = answer;
          if (answered) answer();
          resolve();
        };
      });
      return {
        taken,
        answer: () => {
          answered = true;
          release();
        },
      };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A mailbox's settings for the loopback server: plain text (none), signed in as nobody, from `from`. */
export function loopbackMailbox(port: number, from: string) {
  return { host: '127.0.0.1', port, secure: false, starttls: false, user: null, pass: null, from };
}
