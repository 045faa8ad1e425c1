import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/*
 * D5/D9: anonymous views are told apart by a salted hash of the truncated IP address. The
 * address is cut to its network (/24 for IPv4, /48 for IPv6) before hashing, and the salt
 * changes every day (UTC), so the stored keys of two days cannot be matched with each other
 * without the address, nor reversed into it. The raw address is never stored or logged.
 * A view's check also asks for the key the same address had the day before (`previous`): a
 * visitor seen at 23:59 and again at 00:01 is one viewer within 24 hours (D5).
 */
const DAY_MS = 24 * 60 * 60 * 1000;

export function createViewerKeys(secret: string) {
  const key = createHmac('sha256', secret).update('muri-parlanti:views').digest();

  // Each day's salt, made once a day rather than once a view (every anonymous view asks for
  // today's and yesterday's).
  const salts = new Map<string, Buffer>();
  const saltOf = (day: string): Buffer => {
    let salt = salts.get(day);
    if (salt === undefined) {
      if (salts.size >= 4) salts.clear();
      salt = createHmac('sha256', key).update(day).digest();
      salts.set(day, salt);
    }
    return salt;
  };
  const keyOn = (ip: string, day: Date): string =>
    `a:${createHmac('sha256', saltOf(day.toISOString().slice(0, 10)))
      .update(truncateIp(ip))
      .digest('base64url')
      .slice(0, 32)}`;

  return {
    forUser: (userId: number) => `u:${userId}`,
    forAddress: (ip: string, now: Date): string => keyOn(ip, now),
    /** The key the address had the day before `now` (UTC). */
    previous: (ip: string, now: Date): string => keyOn(ip, new Date(now.getTime() - DAY_MS)),
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
