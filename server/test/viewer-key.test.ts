import { describe, expect, it } from 'vitest';
import { createViewerKeys } from '../src/modules/interactions/viewer-key.js';

/* D5/D9: the keys that tell anonymous viewers apart, without keeping their addresses. */

describe('viewer keys', () => {
  const keys = createViewerKeys('a-secret-long-enough-for-the-test-0123456789');
  const monday = new Date('2026-11-23T10:00:00Z');
  const mondayNight = new Date('2026-11-23T23:59:59Z');
  const tuesday = new Date('2026-11-24T00:00:01Z');

  it('are the same for one network on one day, and change with the day', () => {
    const first = keys.forAddress('203.0.113.7', monday);
    expect(first).toMatch(/^a:[\w-]{32}$/);
    expect(keys.forAddress('203.0.113.200', mondayNight)).toBe(first);
    expect(keys.forAddress('::ffff:203.0.113.9', monday)).toBe(first);
    expect(keys.forAddress('203.0.113.7', tuesday)).not.toBe(first);
    // Back to the first day: the salt of that day again, not the last one made.
    expect(keys.forAddress('203.0.113.7', monday)).toBe(first);
    expect(keys.forAddress('198.51.100.7', monday)).not.toBe(first);
    expect(first).not.toContain('203');
  });

  it("give the address's key of the day and of the day before, for the check across midnight", () => {
    expect(keys.forAddressBothDays('203.0.113.7', tuesday)).toEqual([
      keys.forAddress('203.0.113.7', tuesday),
      keys.forAddress('203.0.113.7', monday),
    ]);
    const [today, dayBefore] = keys.forAddressBothDays('203.0.113.7', mondayNight);
    expect(today).toBe(keys.forAddress('203.0.113.7', monday));
    expect(dayBefore).not.toBe(today);
    // The same network however the address is written, on both days.
    expect(keys.forAddressBothDays('::ffff:203.0.113.99', tuesday)).toEqual(
      keys.forAddressBothDays('203.0.113.7', tuesday),
    );
  });

  it('differ with the secret, and name logged-in viewers by their id', () => {
    const other = createViewerKeys('another-secret-long-enough-for-the-test-987');
    expect(other.forAddress('203.0.113.7', monday)).not.toBe(
      keys.forAddress('203.0.113.7', monday),
    );
    expect(keys.forUser(42)).toBe('u:42');
  });

  it('group IPv6 addresses by their /48', () => {
    const key = keys.forAddress('2001:db8:1234:1::1', monday);
    expect(keys.forAddress('2001:db8:1234:ffff::2', monday)).toBe(key);
    expect(keys.forAddress('2001:db8:1235::1', monday)).not.toBe(key);
    // One address however it is written: in full, in capitals, with a zone.
    expect(keys.forAddress('2001:0DB8:1234:0001:0000:0000:0000:0001', monday)).toBe(key);
    expect(keys.forAddress('2001:db8:1234:1::1%eth0', monday)).toBe(key);
  });
});

describe('viewer keys kept in memory', () => {
  it('stay the same after many other networks pushed them out', () => {
    const keys = createViewerKeys('a-secret-long-enough-for-the-test-0123456789');
    const fresh = createViewerKeys('a-secret-long-enough-for-the-test-0123456789');
    const day = new Date('2026-11-23T10:00:00Z');
    const first = keys.forAddress('203.0.113.7', day);
    // More networks than are kept: the first one's key is made again, identical.
    for (let n = 0; n < 10_050; n += 1) {
      keys.forAddress(`10.${String(n >> 8)}.${String(n & 255)}.1`, day);
    }
    expect(keys.forAddress('203.0.113.7', day)).toBe(first);
    expect(keys.forAddress('10.39.66.9', day)).toBe(fresh.forAddress('10.39.66.1', day));
    expect(keys.forAddressBothDays('203.0.113.7', new Date('2026-11-24T08:00:00Z'))[1]).toBe(first);
  });
});
