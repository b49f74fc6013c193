import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtp } from '../../../test/helpers/smtp.ts';
import { SmtpMailer } from './mailer.ts';

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
      expect(guarded.received).toHaveLength(0);
      expect(JSON.stringify(r)).not.toContain('wrong');
    } finally {
      await guarded.close();
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
});
