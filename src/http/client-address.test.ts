import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

describe('the address a client is counted by', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['203.0.113.7:50001', '203.0.113.7'],
    [' 203.0.113.7:50002 ', '203.0.113.7'],
    ['2001:db8::7', '2001:db8::7'],
    ['[2001:db8::7]:443', '2001:db8::7'],
    ['[2001:DB8:0:0::7]', '2001:db8::7'],
    ['2001:0db8:0000:0000:0000:0000:0000:0007', '2001:db8::7'],
    ['::ffff:1.1.1.1', '1.1.1.1'],
    ['[::FFFF:101:101]:80', '1.1.1.1'],
    ['::1', '::1'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
    ['Unknown', 'unknown'],
    ['garbage:123', 'garbage:123'],
  ])('%s is counted as %s', (raw, counted) => {
    expect(clientAddress(raw)).toBe(counted);
  });
});
