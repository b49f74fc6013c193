import { describe, expect, it } from 'vitest';
import { heardFromClient, readFault, step } from './reader.ts';

const at = { host: 'imap.shop.test', port: 993, secure: true, user: 'desk', pass: 'secret', mailbox: 'INBOX' };

describe('readFault', () => {
  it('says a connection cut before the greeting was closed, as it says for one cut later', () => {
    const closed = 'The mail server at imap.shop.test:993 closed the connection before the pass finished.';
    expect(readFault(new Error('Unexpected close'), at)).toBe(closed);
    expect(readFault(Object.assign(new Error('Connection closed'), { code: 'EConnectionClosed' }), at)).toBe(closed);
  });

  it('names the server, and never the password, when the login is refused', () => {
    const said = readFault({ authenticationFailed: true, responseText: 'Invalid credentials' }, at);
    expect(said).toBe('The mail server at imap.shop.test:993 refused the login: Invalid credentials');
    expect(said).not.toContain('secret');
  });

  it('says a refusal that quotes the login without the password, as typed or as the login sent it', () => {
    const pass = 'ImapP4ssQWERT';
    const b64 = Buffer.from(`\0desk\0${pass}`).toString('base64');
    const said = readFault(
      { authenticationFailed: true, responseText: `Invalid credentials (2 LOGIN "desk" "${pass}") ${b64}` },
      { ...at, pass },
    );
    expect(said).toBe(
      'The mail server at imap.shop.test:993 refused the login: Invalid credentials (2 LOGIN "desk" "***") ***',
    );
  });

  it("says a server that does not speak TLS on the port in words, not in OpenSSL's", () => {
    const tls = Object.assign(
      new Error(
        '80FC8AD40B7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
      ),
      { code: 'ERR_SSL_WRONG_VERSION_NUMBER', library: 'SSL routines', reason: 'wrong version number' },
    );
    expect(readFault(tls, at)).toBe(
      'The mail server at imap.shop.test:993 did not answer over TLS; check the security setting (TLS or none) and the port.',
    );
  });
});

describe('a step that takes too long', () => {
  it('is said as a time-out, though closing the connection fails its command first', async () => {
    let fail: (err: Error) => void = () => {};
    const fetching = new Promise<never>((_, reject) => {
      fail = reject;
    });
    // As the IMAP client does: closing rejects the command under way at once.
    const client = { close: () => fail(Object.assign(new Error('Connection closed'), { code: 'EConnectionClosed' })) };
    const err = await step(client, 'reading message 3', 1000, fetching).catch((e: unknown) => e);
    expect(readFault(err, at)).toBe(
      'Reading message 3 took longer than 1s: the mail server was too slow or stopped answering.',
    );
  });

  it('is said as a time-out when the IMAP client gave up on the silent server first and closed the connection', async () => {
    const client = { close: () => {} };
    const closed = Object.assign(new Error('Connection not available'), { code: 'NoConnection' });
    heardFromClient(client, { code: 'ETIMEOUT' });
    const err = await step(client, 'reading message 4', 1000, Promise.reject(closed)).catch((e: unknown) => e);
    expect(readFault(err, at)).toBe(
      'Reading message 4 took longer than 1s: the mail server was too slow or stopped answering.',
    );
    // Another connection's close is still a close.
    const other = await step({ close: () => {} }, 'reading message 4', 1000, Promise.reject(closed)).catch(
      (e: unknown) => e,
    );
    expect(readFault(other, at)).toBe(
      'The mail server at imap.shop.test:993 closed the connection before the pass finished.',
    );
  });
});
