import { describe, expect, it } from 'vitest';
import { destination, type PrivateAddresses } from './addresses.ts';

const refusedAddress = async (host: string, policy: PrivateAddresses) => {
  const d = await destination(host, policy);
  return d && 'refused' in d ? d.refused : null;
};

describe('where a run may go', () => {
  it('never to a link-local address, such as a cloud metadata service', async () => {
    for (const policy of ['allow', 'refuse'] as const) {
      expect(await refusedAddress('169.254.169.254', policy)).toEqual({
        address: '169.254.169.254',
        why: 'link-local',
      });
      expect(await refusedAddress('[fe80::1]', policy)).toEqual({ address: 'fe80::1', why: 'link-local' });
      expect(await refusedAddress('[::ffff:169.254.169.254]', policy)).toMatchObject({ why: 'link-local' });
      // Carried inside IPv6: the old compatible form, and NAT64's prefix, which a NAT64 network forwards.
      for (const host of ['[::169.254.169.254]', '[::a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b::169.254.169.254]'])
        expect(await refusedAddress(host, policy), host).toMatchObject({ why: 'link-local' });
    }
  });

  it("to the machine's own and private networks' addresses only when they are allowed", async () => {
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.10',
      '[::1]',
      '[fd00::5]',
      '0.0.0.0',
      'localhost',
      '[::127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[::ffff:10.0.0.1]',
    ]) {
      expect(await refusedAddress(host, 'allow'), host).toBeNull();
      expect(await refusedAddress(host, 'refuse'), host).toMatchObject({ why: 'private' });
    }
  });

  it('to a public address either way', async () => {
    for (const host of [
      '93.184.215.14',
      '[2606:2800:21f:cb07:6820:80da:af6b:8b2c]',
      '172.32.0.1',
      '[64:ff9b::5db8:d70e]',
      '[2001:db8::a9fe:a9fe]',
    ])
      for (const policy of ['allow', 'refuse'] as const) expect(await refusedAddress(host, policy), host).toBeNull();
  });
});
