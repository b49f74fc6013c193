import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';

// A real IMAP server for the mail-reading tests: Debian's Dovecot, started from a config in a
// temporary directory on a free loopback port, with one user whose password is in a passwd
// file. Mail is stored as the `dovecot` user (a static userdb), so the server runs as root here
// without touching the machine's own mail setup. Replies are put in the inbox by APPEND.

export const DOVECOT = '/usr/sbin/dovecot';

/** Why the Dovecot tests cannot run here, or null when they can. */
export function dovecotMissing(): string | null {
  if (!existsSync(DOVECOT))
    return `Dovecot is not installed (${DOVECOT}); install dovecot-imapd to run the mail-reading tests`;
  if (!uidOf('dovecot')) return 'Dovecot is installed but there is no dovecot user to store mail as';
  return null;
}

export interface TestImap {
  host: string;
  port: number;
  user: string;
  pass: string;
  /** Puts one raw message in the mailbox, as a delivered message would arrive; `at` is its arrival (derive it from the test clock). */
  append(raw: string, opts?: { mailbox?: string; at?: Date }): Promise<number | null>;
  /** Empties a mailbox (not INBOX) and gives it a new UIDVALIDITY, as a server's reset would. */
  reset(mailbox: string): Promise<void>;
  /** Stops the server; the mail stays for `resume()` on the same port. */
  pause(): Promise<void>;
  /** Starts it again after `pause()`. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function uidOf(name: string): { uid: number; gid: number } | null {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('data', (d) => done(d.toString().startsWith('* OK')));
    s.once('error', () => done(false));
  });
}

/**
 * The environment without a shifted clock (libfaketime), which CI puts the suite under. Dovecot
 * is the outside mail server and keeps the machine's time: shifted, its processes disagree on
 * the time (the login processes it starts read the real clock), its master at some point logs
 * that time moved back 400 days, and it then starts no new process for three minutes. The
 * tests give every message its date themselves.
 */
function ownClock(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== 'LD_PRELOAD' && !k.startsWith('FAKETIME')),
  );
}

export async function startDovecot(): Promise<TestImap> {
  const missing = dovecotMissing();
  if (missing) throw new Error(missing);
  const owner = uidOf('dovecot') as { uid: number; gid: number };
  const dir = mkdtempSync(join(tmpdir(), 'desk-dovecot-'));
  chmodSync(dir, 0o755);
  const mail = join(dir, 'mail');
  mkdirSync(mail);
  chownSync(mail, owner.uid, owner.gid);
  const port = await freePort();
  const user = 'desk';
  const pass = 'inbox-pass';
  writeFileSync(join(dir, 'passwd'), `${user}:{PLAIN}${pass}\n`);
  const conf = join(dir, 'dovecot.conf');
  writeFileSync(
    conf,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = desk-test-${port}
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = ${Math.max(1, owner.uid - 1)}
mail_location = maildir:${mail}/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${mail}/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
}
`,
  );

  let child: ChildProcess | null = null;
  const start = async () => {
    const proc = spawn(DOVECOT, ['-F', '-c', conf], { env: ownClock(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (d) => {
      stderr += String(d);
    });
    child = proc;
    for (let i = 0; i < 100; i++) {
      if (proc.exitCode !== null) break;
      if (await greets(port)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    const log = existsSync(join(dir, 'dovecot.log')) ? readFileSync(join(dir, 'dovecot.log'), 'utf8') : '';
    throw new Error(`Dovecot did not start on 127.0.0.1:${port}: ${stderr}${log}`);
  };
  const halt = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  };
  await start();

  const withClient = async <T>(fn: (c: ImapFlow) => Promise<T>): Promise<T> => {
    const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass }, logger: false });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.logout().catch(() => c.close());
    }
  };

  return {
    host: '127.0.0.1',
    port,
    user,
    pass,
    append: (raw, opts = {}) =>
      withClient(async (c) => {
        const mailbox = opts.mailbox ?? 'INBOX';
        if (mailbox !== 'INBOX') await c.mailboxCreate(mailbox).catch(() => undefined);
        const r = await c.append(mailbox, raw, [], opts.at);
        return r && typeof r === 'object' && typeof r.uid === 'number' ? r.uid : null;
      }),
    reset: (mailbox) =>
      withClient(async (c) => {
        // A mailbox made anew gets a new UIDVALIDITY; INBOX itself cannot be deleted.
        await c.mailboxDelete(mailbox);
        await c.mailboxCreate(mailbox);
      }),
    pause: halt,
    resume: start,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
