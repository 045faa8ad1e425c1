import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/*
 * D5/D9: anonymous views are told apart by a salted hash of the truncated IP address. The
 * address is cut to its network (/24 for IPv4, /48 for IPv6) before hashing, and the salt
 * changes every day (UTC), so the stored key can neither be reversed into an address nor
 * link a visitor across days. The raw address is never stored or logged.
 */
export function createViewerKeys(secret: string) {
  const key = createHmac('sha256', secret).update('muri-parlanti:views').digest();

  // The day's salt, made once a day rather than once a view (every anonymous view asks).
  let salted = { day: '', salt: Buffer.alloc(0) };
  const saltOf = (day: string): Buffer => {
    if (salted.day !== day) salted = { day, salt: createHmac('sha256', key).update(day).digest() };
    return salted.salt;
  };

  return {
    forUser: (userId: number) => `u:${userId}`,
    forAddress(ip: string, now: Date): string {
      const salt = saltOf(now.toISOString().slice(0, 10));
      return `a:${createHmac('sha256', salt).update(truncateIp(ip)).digest('base64url').slice(0, 32)}`;
    },
  };
}

export function truncateIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) return `${expandIpv6(address).slice(0, 3).join(':')}::/48`;
  return 'unknown';
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const missing = address.includes('::') ? 8 - left.length - right.length : 0;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((part) =>
    part.toLowerCase().padStart(4, '0'),
  );
}
