import ipaddr from 'ipaddr.js';

/**
 * The network a client's address belongs to, as `address/bits`: its first `v4` bits for an
 * IPv4 address, its first `v6` for an IPv6 one. An IPv4 address written as IPv6
 * (`::ffff:a.b.c.d`, as a dual-stack socket reports it) is the IPv4 address; every written
 * form of one address (upper case, zeros left out or not, a zone) gives one network. Null when
 * `address` is no address. Rate limits (plugins/security.ts) and anonymous viewers' keys
 * (interactions/viewer-key.ts) both count clients by their network.
 */
export function networkOf(address: string, bits: { v4: number; v6: number }): string | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.process(address);
  const prefix = parsed instanceof ipaddr.IPv4 ? bits.v4 : bits.v6;
  const bytes = parsed.toByteArray().map((byte, index) => {
    const kept = Math.min(8, Math.max(0, prefix - index * 8));
    return byte & (0xff00 >> kept) & 0xff;
  });
  return `${ipaddr.fromByteArray(bytes).toString()}/${String(prefix)}`;
}

/** Whether `address` is an IPv6 client's (an IPv4 address written as IPv6 is not). */
export function isIPv6Client(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address) instanceof ipaddr.IPv6;
}
