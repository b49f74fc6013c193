import { describe, expect, it } from 'vitest';
import { smtpFaults } from './smtp-settings.ts';

// A server's name is checked where it is given: one with a port or a scheme written into it
// passed and failed only when the desk first used it ("no server named smtp.example.com:587").

describe("a mailbox's server name", () => {
  const hostFault = (host: string) => smtpFaults({ host, port: 587, from: 'shop@example.com' }).host;

  it('is a name or an address alone', () => {
    for (const host of ['smtp.example.com', '127.0.0.1', '::1', '[::1]', 'fe80::1', 'mail-1.example.co.uk'])
      expect(hostFault(host), host).toBeUndefined();
  });

  it('with a port in it is refused, naming the name and the port to give apart', () => {
    expect(hostFault('smtp.example.com:587')).toBe(
      '"smtp.example.com:587" is not a server name: give the name alone (smtp.example.com), and the port apart (587).',
    );
    expect(hostFault('127.0.0.1:')).toBe(
      '"127.0.0.1:" is not a server name: give the name alone (127.0.0.1), and the port apart (587).',
    );
  });

  it('with a scheme in it is refused, naming the name alone', () => {
    expect(hostFault('smtp://smtp.example.com:25/')).toBe(
      '"smtp://smtp.example.com:25/" is not a server name: give the name alone, such as smtp.example.com.',
    );
  });

  it('with a space in it, or none, is refused as before', () => {
    expect(hostFault('smtp example.com')).toBe('"smtp example.com" is not a server name: it has a space in it.');
    expect(hostFault('  ')).toBe('The mail server is required, such as smtp.example.com.');
  });
});
