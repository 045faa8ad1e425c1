import { describe, expect, it } from 'vitest';
import { italianDay, lastItalianDays } from '../src/lib/italian-day.js';

describe('italianDay', () => {
  it("is Italy's calendar day, an hour ahead of UTC in winter and two in summer", () => {
    expect(italianDay(new Date('2026-12-02T22:59:59Z'))).toBe('2026-12-02');
    expect(italianDay(new Date('2026-12-02T23:00:00Z'))).toBe('2026-12-03');
    expect(italianDay(new Date('2026-07-01T21:59:59Z'))).toBe('2026-07-01');
    expect(italianDay(new Date('2026-07-01T22:00:00Z'))).toBe('2026-07-02');
  });

  it('follows the clock changes of the last Sundays of March and October', () => {
    // 29 March 2026: 02:00 becomes 03:00; 25 October 2026: 03:00 becomes 02:00.
    expect(italianDay(new Date('2026-03-28T23:00:00Z'))).toBe('2026-03-29');
    expect(italianDay(new Date('2026-03-29T21:59:59Z'))).toBe('2026-03-29');
    expect(italianDay(new Date('2026-03-29T22:00:00Z'))).toBe('2026-03-30');
    expect(italianDay(new Date('2026-10-24T22:00:00Z'))).toBe('2026-10-25');
    expect(italianDay(new Date('2026-10-25T22:59:59Z'))).toBe('2026-10-25');
    expect(italianDay(new Date('2026-10-25T23:00:00Z'))).toBe('2026-10-26');
  });
});

describe('lastItalianDays', () => {
  it("ends with the day it is in Italy, which may be UTC's next", () => {
    const late = lastItalianDays(new Date('2026-12-02T23:30:00Z'), 3);
    expect(late.days).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
    // Early enough for the first day's start, 23:00 UTC of 30 November.
    expect(late.since.toISOString()).toBe('2026-11-30T22:00:00.000Z');
    const across = lastItalianDays(new Date('2026-03-30T12:00:00Z'), 3);
    expect(across.days).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
  });
});
