import { describe, expect, it } from 'vitest';
import { mailboxSettings } from './settings.ts';

describe('the imap part of a mail connection', () => {
  it('is absent without a host', () => {
    expect(mailboxSettings({ host: 'smtp.test' })).toBeNull();
    expect(mailboxSettings({ imap: { port: 993 } })).toBeNull();
  });
  it('defaults to TLS on 993 and the INBOX', () => {
    expect(mailboxSettings({ imap: { host: 'imap.test', user: 'u', pass: 'p' } })).toEqual({
      host: 'imap.test',
      port: 993,
      secure: true,
      user: 'u',
      pass: 'p',
      mailbox: 'INBOX',
    });
  });
  it('takes a plain port as given', () => {
    expect(
      mailboxSettings({ imap: { host: 'imap.test', port: 143, secure: false, mailbox: 'Replies' } }),
    ).toMatchObject({
      port: 143,
      secure: false,
      mailbox: 'Replies',
      user: null,
      pass: null,
    });
  });
});
