import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtp } from '../../../test/helpers/smtp.ts';
import { mustUpgrade, SmtpMailer } from './mailer.ts';

// How each way a send can end is told to the desk: only a failure before the message was handed
// over is "nothing went"; after it, whether it went is not known (a second send could be a copy).

const mail = { to: 'someone@mailer.test', subject: 'Renewal', text: 'Hello' };
const mailer = new SmtpMailer({ timeoutMs: 2_000 });
const via = (port: number) => ({
  provider: 'smtp',
  config: { host: '127.0.0.1', port, from: 'desk@mailer.test', starttls: false },
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** How a scripted server behaves: each answer `delayMs` late (DATA's three times that), and what it does at DATA or STARTTLS. */
interface Script {
  delayMs?: number;
  greeting?: string;
  atData?: 'hang up' | 'say nothing' | 'take it with 250, then say nothing';
  starttls?: 'garbage';
  /** The answer to MAIL FROM, when not 250. */
  mailFrom?: string;
}

/** A raw SMTP server that follows a script, counting the messages whose final dot it read. */
async function scripted(script: Script): Promise<{ port: number; messages: () => number; close: () => void }> {
  let messages = 0;
  const server = createServer((s) => {
    s.on('error', () => undefined);
    const say = (line: string, times = 1) =>
      setTimeout(
        () => {
          if (!s.destroyed) s.write(`${line}\r\n`);
        },
        (script.delayMs ?? 0) * times,
      );
    say(script.greeting ?? '220 scripted.test ESMTP');
    let text: string | null = null;
    let pending = '';
    s.on('data', (chunk: Buffer) => {
      if (text !== null) {
        text += chunk.toString('latin1');
        if (!text.includes('\r\n.\r\n')) return;
        text = null;
        messages++;
        if (script.atData !== 'take it with 250, then say nothing') say('250 Taken');
        return;
      }
      pending += chunk.toString('latin1');
      let end = pending.indexOf('\r\n');
      while (end >= 0) {
        const line = pending.slice(0, end).toUpperCase();
        pending = pending.slice(end + 2);
        end = pending.indexOf('\r\n');
        if (line.startsWith('EHLO')) say(script.starttls ? '250-scripted.test\r\n250 STARTTLS' : '250 scripted.test');
        else if (line === 'STARTTLS') {
          s.write('220 Go ahead\r\n');
          s.write('this is not a TLS handshake\r\n');
        } else if (line === 'DATA') {
          if (script.atData === 'hang up') s.destroy();
          else if (script.atData === 'take it with 250, then say nothing') {
            say('250 Go ahead');
            text = '';
          } else if (script.atData !== 'say nothing') {
            say('354 Go on', 3);
            text = '';
          }
        } else if (line.startsWith('MAIL FROM') && script.mailFrom) say(script.mailFrom);
        else if (line === 'QUIT') say('221 Bye');
        else say('250 OK');
      }
    });
  });
  const port = await listen(server);
  return { port, messages: () => messages, close: () => server.close() };
}

describe('SmtpMailer', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('a message the server takes is accepted', async () => {
    smtp.setMode('accept');
    expect(await mailer.send(via(smtp.port), mail)).toMatchObject({ accepted: true });
  });

  it('writes the sender as its name and address, and sends to the address alone, however they are written', async () => {
    smtp.setMode('accept');
    const cases: Array<[string, string, string]> = [
      // The setting, the From header it gives, the envelope's sender.
      ['Shop: Best <shop@mailer.test>', '"Shop: Best" <shop@mailer.test>', 'shop@mailer.test'],
      ['"Shop Ltd" <shop@mailer.test>', 'Shop Ltd <shop@mailer.test>', 'shop@mailer.test'],
      ['A <b@c.test> <shop@mailer.test>', '"A <b@c.test>" <shop@mailer.test>', 'shop@mailer.test'],
      ['shop@mailer.test', 'shop@mailer.test', 'shop@mailer.test'],
    ];
    for (const [from, header, envelope] of cases) {
      const before = smtp.received.length;
      const box = { provider: 'smtp', config: { ...via(smtp.port).config, from } };
      expect(await mailer.send(box, mail), from).toMatchObject({ accepted: true });
      const got = smtp.received[before]!;
      expect(got.from, from).toBe(envelope);
      expect(got.to).toEqual([mail.to]);
      const headers = `\r\n${got.raw.split('\r\n\r\n')[0]}\r\n`;
      expect(headers, from).toContain(`\r\nFrom: ${header}\r\n`);
      expect(headers).toContain(`\r\nTo: ${mail.to}\r\n`);
    }
  });

  it('a sender that is no address sends nothing, and says it is the mailbox', async () => {
    const before = smtp.received.length;
    // A business file's mailbox with no from: its user is taken as the sender.
    const box = { provider: 'smtp', config: { host: '127.0.0.1', port: smtp.port, user: 'apikey', starttls: false } };
    const r = await mailer.send(box, mail);
    expect(r).toEqual({
      accepted: false,
      refusedMailbox: true,
      reason:
        'The mailbox\'s sender "apikey" is not an email address, so nothing was sent; set its From to one, such as Shop <shop@example.com>.',
    });
    expect(smtp.received.length).toBe(before);
  });

  it('a refused recipient is a refusal: neither unknown nor unreachable', async () => {
    smtp.setMode('refuse');
    const r = await mailer.send(via(smtp.port), mail);
    expect(r).toMatchObject({ accepted: false, reason: expect.stringMatching(/refused.*550/) });
    expect(r).not.toHaveProperty('unknown');
    expect(r).not.toHaveProperty('unreachable');
  });

  it.each([
    ['a recipient', 'later', /asked for the message to be sent later \(451 Try again later\), so nothing was sent\./],
    ['the message after DATA', 'later-data', /sent later \(451 Queue full, try again later\)/],
  ] as const)('a server that asks to send %s later took nothing: unreachable, not unknown', async (_, mode, said) => {
    smtp.setMode(mode);
    const before = smtp.received.length;
    const r = await mailer.send(via(smtp.port), mail);
    expect(smtp.received.length).toBe(before);
    expect(r).toMatchObject({ accepted: false, unreachable: true, reason: expect.stringMatching(said) });
    expect(r).not.toHaveProperty('unknown');
  });

  it('a refused sign-in is a refusal said as the sign-in, not an outage to wait out, and nothing went', async () => {
    const guarded = await startSmtpServer({ auth: { user: 'desk', pass: 'right' } });
    try {
      const r = await mailer.send(
        { provider: 'smtp', config: { ...via(guarded.port).config, user: 'desk', pass: 'wrong' } },
        mail,
      );
      expect(r).toMatchObject({
        accepted: false,
        reason: expect.stringMatching(
          /^The mail server refused the desk's sign-in \(535 .*\), so nothing was sent; check/,
        ),
      });
      expect(r).not.toHaveProperty('unknown');
      expect(r).not.toHaveProperty('unreachable');
      // Every other message through the mailbox would be refused alike.
      expect(r).toHaveProperty('refusedMailbox', true);
      expect(guarded.received).toHaveLength(0);
      expect(JSON.stringify(r)).not.toContain('wrong');
    } finally {
      await guarded.close();
    }
  });

  it('a mailbox set to STARTTLS, or elsewhere and not set to none, is sent through STARTTLS or not at all', async () => {
    const plain = await startSmtpServer({ auth: { user: 'desk', pass: 'right' } });
    try {
      const { starttls: _none, ...plainConfig } = via(plain.port).config;
      for (const config of [
        { ...plainConfig, user: 'desk', pass: 'right', starttls: true },
        { ...plainConfig, host: 'localhost', user: 'desk', pass: 'right', starttls: true },
      ]) {
        expect(await mailer.send({ provider: 'smtp', config }, mail), JSON.stringify(config)).toEqual({
          accepted: false,
          unreachable: true,
          reason:
            "The mail server does not offer a secure connection (STARTTLS), which the mailbox's security setting asks for, so nothing was sent and the password was not given; check the server's port, or choose None for a local test server.",
        });
      }
      expect(plain.signIns()).toBe(0);
      expect(plain.received).toHaveLength(0);
      const none = { ...plainConfig, user: 'desk', pass: 'right', starttls: false };
      expect(await mailer.send({ provider: 'smtp', config: none }, mail)).toMatchObject({ accepted: true });
      // Not said, on this machine (the demo's mailbox, a file's): upgraded only when offered.
      const unsaid = { ...plainConfig, user: 'desk', pass: 'right' };
      expect(await mailer.send({ provider: 'smtp', config: unsaid }, mail)).toMatchObject({ accepted: true });
      expect(plain.signIns()).toBe(2);
      expect(plain.received).toHaveLength(2);
    } finally {
      await plain.close();
    }
  });

  it("a sender the server refuses is the mailbox's refusal; a message too large for it, or a recipient refused, is the message's", async () => {
    const refusing = await scripted({ mailFrom: '550 5.7.1 Sender rejected' });
    const small = await scripted({ mailFrom: '552 5.3.4 Message size exceeds fixed limit' });
    try {
      expect(await mailer.send(via(refusing.port), mail)).toEqual({
        accepted: false,
        refusedMailbox: true,
        reason:
          "The mail server refused the desk's mailbox (550 5.7.1 Sender rejected), so nothing was sent; check the mailbox's settings, its From address above all.",
      });
      expect(await mailer.send(via(small.port), mail)).toEqual({
        accepted: false,
        reason: 'The mail server refused the message: 552 5.3.4 Message size exceeds fixed limit.',
      });
      smtp.setMode('refuse');
      const r = await mailer.send(via(smtp.port), mail);
      expect(r).toMatchObject({
        accepted: false,
        reason: expect.stringMatching(/^The mail server refused the message/),
      });
      expect(r).not.toHaveProperty('refusedMailbox');
    } finally {
      smtp.setMode('accept');
      refusing.close();
      small.close();
    }
  });

  it('upgrades a plain connection unless the mailbox says none, or leaves it unsaid on this machine', () => {
    for (const host of ['smtp.example.com', '192.168.1.10', '10.0.0.2', '::2', 'localhost.example.com'])
      expect(mustUpgrade(host, undefined), host).toBe(true);
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]'])
      expect(mustUpgrade(host, undefined), host).toBe(false);
    expect(mustUpgrade('127.0.0.1', true)).toBe(true);
    expect(mustUpgrade('smtp.example.com', false)).toBe(false);
  });

  it('a refusal that quotes the sign-in it was given says it without the password', async () => {
    const echoing = await startSmtpServer({ auth: { user: 'desk', pass: 'right' }, echoAuth: true });
    try {
      const r = await mailer.send(
        { provider: 'smtp', config: { ...via(echoing.port).config, user: 'desk', pass: 'SmtpP4ssXYZZY' } },
        mail,
      );
      expect(r).toMatchObject({
        accepted: false,
        reason: expect.stringContaining('Authentication failed for desk ***'),
      });
      expect(JSON.stringify(r)).not.toContain('SmtpP4ssXYZZY');
    } finally {
      await echoing.close();
    }
  });

  it('a connection closed after the message was handed over may have delivered it: not known', async () => {
    smtp.setMode('drop');
    const before = smtp.received.length;
    const r = await mailer.send(via(smtp.port), mail);
    // The server did get the message, which is why a resend would be a copy.
    expect(smtp.received.length).toBe(before + 1);
    expect(r).toMatchObject({
      accepted: false,
      unknown: true,
      reason: expect.stringMatching(/closed the connection after the message was handed over/),
    });
  });

  it('a port nobody listens on: unreachable, and nothing went', async () => {
    const gone = createServer();
    const port = await listen(gone);
    await new Promise((r) => gone.close(r));
    const r = await mailer.send(via(port), mail);
    expect(r).toMatchObject({
      accepted: false,
      unreachable: true,
      reason: `The mail server could not be reached: the connection to 127.0.0.1:${port} was refused; check the server's name and port, and that it is running.`,
    });
    expect(r).not.toHaveProperty('unknown');
  });

  it('a server name nobody knows: unreachable, said in words', async () => {
    const r = await mailer.send({ ...via(25), config: { ...via(25).config, host: 'no-such-server.invalid' } }, mail);
    expect(r).toMatchObject({
      accepted: false,
      unreachable: true,
      reason:
        'The mail server could not be reached: no server named no-such-server.invalid could be found; check its name.',
    });
  });

  it('a server that hangs up at its greeting: unreachable, and nothing went', async () => {
    const rude = createServer((s) => s.destroy());
    const port = await listen(rude);
    try {
      const r = await mailer.send(via(port), mail);
      expect(r).toMatchObject({ accepted: false, unreachable: true });
      expect(r).not.toHaveProperty('unknown');
    } finally {
      await new Promise((r) => rude.close(r));
    }
  });

  it('a server that never greets: unreachable after the timeout, and nothing went', async () => {
    const mute = createServer(() => undefined);
    const port = await listen(mute);
    try {
      const r = await new SmtpMailer({ timeoutMs: 300 }).send(via(port), mail);
      expect(r).toMatchObject({
        accepted: false,
        reason: expect.stringMatching(/nothing was sent/),
      });
      expect(r).not.toHaveProperty('unknown');
    } finally {
      mute.close();
    }
  });

  it('a conversation past its time is cut off: the message cannot go after the desk said it did not', async () => {
    // Each answer comes in time, but the whole conversation would take longer than it may.
    const slow = await scripted({ delayMs: 300 });
    try {
      const started = Date.now();
      // Cut off at 1.35 s, with RCPT answered at 1.2 s and DATA not before 2.1 s.
      const r = await new SmtpMailer({ timeoutMs: 350 }).send(via(slow.port), mail);
      expect(r).toMatchObject({
        accepted: false,
        unreachable: true,
        reason: expect.stringMatching(/nothing was sent/),
      });
      expect(r).not.toHaveProperty('unknown');
      // Long enough for the server to have had the whole message, had the desk gone on.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 3_000 - Date.now())));
      expect(slow.messages()).toBe(0);
    } finally {
      slow.close();
    }
  });

  it.each([
    ['hangs up on DATA', 'hang up'],
    ['never answers DATA', 'say nothing'],
  ] as const)('a server that %s was never given the message: unreachable, and nothing went', async (_, atData) => {
    const server = await scripted({ atData });
    try {
      const r = await new SmtpMailer({ timeoutMs: 500 }).send(via(server.port), mail);
      expect(r).toMatchObject({
        accepted: false,
        unreachable: true,
        reason: expect.stringMatching(/nothing was sent/),
      });
      expect(r).not.toHaveProperty('unknown');
      expect(server.messages()).toBe(0);
    } finally {
      server.close();
    }
  });

  it('a server that lets the text go with a 250 to DATA holds it: its silence after is not known', async () => {
    const server = await scripted({ atData: 'take it with 250, then say nothing' });
    try {
      const r = await new SmtpMailer({ timeoutMs: 500 }).send(via(server.port), mail);
      expect(server.messages()).toBe(1);
      expect(r).toMatchObject({ accepted: false, unknown: true });
    } finally {
      server.close();
    }
  });

  it('a server that does not speak SMTP, or fails its TLS, is said as that, not as one out of reach', async () => {
    const stranger = await scripted({ greeting: 'HELLO THERE I AM NOT SMTP' });
    const badTls = await scripted({ starttls: 'garbage' });
    try {
      expect(await mailer.send(via(stranger.port), mail)).toEqual({
        accepted: false,
        unreachable: true,
        reason:
          "The mail server answered, but not as a mail server does, so nothing was sent; check the server's port, and whether it expects a secure connection from the start.",
      });
      const upgraded = { ...via(badTls.port), config: { ...via(badTls.port).config, starttls: true } };
      expect(await mailer.send(upgraded, mail)).toEqual({
        accepted: false,
        unreachable: true,
        reason:
          "The secure connection to the mail server could not be set up, so nothing was sent; check the server's port and the mailbox's security setting.",
      });
    } finally {
      stranger.close();
      badTls.close();
    }
  });
});
