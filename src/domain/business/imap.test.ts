import { describe, expect, it } from 'vitest';
import { fileErrors } from '../../../test/helpers/business-file.ts';
import { readBusiness } from './read.ts';

// The `imap` part of a mailbox in the business file (P-mail-4).

const NOW = new Date('2026-11-22T10:00:00.000Z');

function file(imap: unknown) {
  return {
    desk: { name: 'Corner Bakery', slug: 'corner-bakery' },
    connections: [
      { ref: 'mailbox', provider: 'smtp', name: 'Shop mailbox', category: 'mail', config: { host: 'smtp.test', imap } },
    ],
  };
}

const errorsOf = (doc: unknown) => fileErrors(doc, NOW);

describe('the imap part of a mailbox', () => {
  it('fills in the port, TLS and the INBOX', () => {
    const plan = readBusiness(file({ host: 'imap.test', user: 'owner', pass: 's3cret' }), NOW);
    expect(plan.connections[0]?.config.imap).toEqual({
      host: 'imap.test',
      port: 993,
      secure: true,
      user: 'owner',
      pass: 's3cret',
      mailbox: 'INBOX',
    });
  });

  it('takes a plain port without TLS', () => {
    const plan = readBusiness(file({ host: 'imap.test', port: 143, mailbox: 'Replies' }), NOW);
    expect(plan.connections[0]?.config.imap).toMatchObject({ port: 143, secure: false, mailbox: 'Replies' });
  });

  it('names each wrong field, and never echoes the password', () => {
    const errors = errorsOf(file({ port: 70000, secure: 'yes', passwd: 'hunter2' }));
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/config\.imap\.host: is required/),
        expect.stringMatching(/config\.imap\.port: 70000 must be between 1 and 65535/),
        expect.stringMatching(/config\.imap\.secure: must be true or false/),
        expect.stringMatching(/config\.imap\.passwd: unknown field/),
      ]),
    );
    expect(errors.join('\n')).not.toContain('hunter2');
  });

  it('must be a mapping', () => {
    expect(errorsOf(file('imap.test'))).toEqual([expect.stringMatching(/config\.imap: must be a mapping/)]);
  });
});
