import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { isIPv6Client, networkOf } from '../src/lib/ip-network.js';

/*
 * The networks rate limits and anonymous viewers' keys count clients by. Plain IPv4 addresses
 * are read without ipaddr.js (the usual case, on every request); each answer is compared with
 * the network ipaddr.js itself works out from the same address and prefix.
 */

/** ipaddr.js's own answer: the oracle for every form of address. */
function expected(address: string, bits: { v4: number; v6: number }): string | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.process(address);
  if (parsed instanceof ipaddr.IPv4) {
    const cidr = `${parsed.toString()}/${String(bits.v4)}`;
    return `${ipaddr.IPv4.networkAddressFromCIDR(cidr).toString()}/${String(bits.v4)}`;
  }
  const cidr = `${parsed.toString()}/${String(bits.v6)}`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(cidr).toString()}/${String(bits.v6)}`;
}

/** Every value of each part in turn, the others kept, at every prefix: 33,792 addresses. */
function* sweep(): Generator<[address: string, prefix: number]> {
  const base = [203, 0, 113, 77];
  for (let part = 0; part < 4; part += 1) {
    for (let value = 0; value < 256; value += 1) {
      const parts = base.map((byte, index) => (index === part ? value : byte));
      for (let prefix = 0; prefix <= 32; prefix += 1) yield [parts.join('.'), prefix];
    }
  }
}

describe('networkOf', () => {
  it('masks plain IPv4 addresses, in every form a socket reports them, as ipaddr.js does', () => {
    for (const [address, prefix] of sweep()) {
      const bits = { v4: prefix, v6: 64 };
      const network = networkOf(address, bits);
      expect(network).toBe(expected(address, bits));
      expect(networkOf(`::ffff:${address}`, bits)).toBe(network);
      expect(networkOf(`::FFFF:${address}`, bits)).toBe(network);
    }
    expect(networkOf('203.0.113.77', { v4: 24, v6: 48 })).toBe('203.0.113.0/24');
    expect(networkOf('255.255.255.255', { v4: 32, v6: 64 })).toBe('255.255.255.255/32');
    expect(networkOf('0.0.0.0', { v4: 0, v6: 64 })).toBe('0.0.0.0/0');
  });

  it('reads every other form through ipaddr.js, and no address as none', () => {
    const bits = { v4: 24, v6: 48 };
    for (const address of [
      '010.1.2.3', // leading zero: octal to ipaddr.js
      '0x7f.0.0.1',
      '127.1',
      '1.2.3',
      '256.1.1.1',
      '1.2.3.4.5',
      ' 1.2.3.4',
      '1.2.3.4 ',
      '::ffff:010.1.2.3',
      '::ffff:1.2.3.4%eth0',
      '2001:db8:1234:1::1',
      '2001:0DB8:1234:0001:0000:0000:0000:0001',
      '::1',
      'localhost',
      '',
    ]) {
      expect(networkOf(address, bits), address).toBe(expected(address, bits));
    }
    expect(networkOf('010.1.2.3', bits)).toBe('8.1.2.0/24');
    expect(networkOf('256.1.1.1', bits)).toBeNull();
  });
});

describe('isIPv6Client', () => {
  it('is false for IPv4 clients however written, true for IPv6 ones', () => {
    expect(isIPv6Client('203.0.113.7')).toBe(false);
    expect(isIPv6Client('::ffff:203.0.113.7')).toBe(false);
    expect(isIPv6Client('::FFFF:203.0.113.7')).toBe(false);
    expect(isIPv6Client('::ffff:203.0.113.7%eth0')).toBe(false);
    expect(isIPv6Client('010.1.2.3')).toBe(false);
    expect(isIPv6Client('2001:db8::1')).toBe(true);
    expect(isIPv6Client('::1')).toBe(true);
    expect(isIPv6Client('not an address')).toBe(false);
  });
});
