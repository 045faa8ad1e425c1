import { createHmac } from 'node:crypto';
import { networkOf } from '../../lib/ip-network.js';

/*
 * D5/D9: anonymous views are told apart by a salted hash of the truncated IP address. The
 * address is cut to its network (/24 for IPv4, /48 for IPv6) before hashing, and the salt
 * changes every day (UTC), so the stored keys of two days cannot be matched with each other
 * without the address, nor reversed into it. The raw address is never stored or logged.
 * A view's check also asks for the key the same address had the day before
 * (`forAddressBothDays`): a visitor seen at 23:59 and again at 00:01 is one viewer within 24
 * hours (D5).
 */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Each network's keys, kept for the day they belong to: an anonymous view needs two (today's
 * and yesterday's), and two HMACs were a third of a view's time on the event loop (issue 8,
 * goal 5), while a visitor views many images from one address. Held in memory only, by the
 * network the key is made from (never the full address); only today's and yesterday's are
 * kept, at most this many networks each, the oldest dropped first.
 */
const NETWORKS_KEPT = 10_000;

export function createViewerKeys(secret: string) {
  const key = createHmac('sha256', secret).update('muri-parlanti:views').digest();

  // Each day's salt, made once a day rather than once a view (every anonymous view asks for
  // today's and yesterday's).
  const salts = new Map<number, Buffer>();
  const saltOf = (day: number): Buffer => {
    let salt = salts.get(day);
    if (salt === undefined) {
      if (salts.size >= 4) salts.clear();
      const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
      salt = createHmac('sha256', key).update(date).digest();
      salts.set(day, salt);
    }
    return salt;
  };

  // Per day, each network's key; a day older than the day before the newest asked is dropped.
  const days = new Map<number, Map<string, string>>();
  const keysOf = (day: number): Map<string, string> => {
    let kept = days.get(day);
    if (kept === undefined) {
      kept = new Map();
      days.set(day, kept);
      for (const known of days.keys()) if (known < day - 1) days.delete(known);
    }
    return kept;
  };
  const networkFor = (ip: string): string => networkOf(ip, { v4: 24, v6: 48 }) ?? 'unknown';
  const keyOn = (network: string, day: number): string => {
    const kept = keysOf(day);
    let viewerKey = kept.get(network);
    if (viewerKey === undefined) {
      viewerKey = `a:${createHmac('sha256', saltOf(day))
        .update(network)
        .digest('base64url')
        .slice(0, 32)}`;
      if (kept.size >= NETWORKS_KEPT) {
        const oldest = kept.keys().next().value;
        if (oldest !== undefined) kept.delete(oldest);
      }
      kept.set(network, viewerKey);
    }
    return viewerKey;
  };
  const dayOf = (at: Date): number => Math.floor(at.getTime() / DAY_MS);

  return {
    forUser: (userId: number) => `u:${String(userId)}`,
    forAddress: (ip: string, now: Date): string => keyOn(networkFor(ip), dayOf(now)),
    /** The address's key on the day of `now` and on the day before (UTC), for D5's check. */
    forAddressBothDays: (ip: string, now: Date): readonly [today: string, dayBefore: string] => {
      const network = networkFor(ip);
      const day = dayOf(now);
      return [keyOn(network, day), keyOn(network, day - 1)];
    },
  };
}
