import { describe, expect, it } from 'vitest';
import { formatSize } from '../../../lib/format.js';

// The pending list's size column (SPEC §2, §9): Bytes, KB, MB, GB, base 1024, two decimals,
// written as Italian writes them (SPEC §1: every text is Italian), with a decimal comma.
describe('formatSize', () => {
  it('keeps small sizes in bytes', () => {
    expect(formatSize(0)).toBe('0 Bytes');
    expect(formatSize(1023)).toBe('1023 Bytes');
  });

  it('counts kilobytes, megabytes and gigabytes in powers of 1024', () => {
    expect(formatSize(1024)).toBe('1,00 KB');
    expect(formatSize(1536)).toBe('1,50 KB');
    expect(formatSize(1024 * 1024 - 1)).toBe('1024,00 KB');
    expect(formatSize(1024 * 1024)).toBe('1,00 MB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5,00 MB');
    expect(formatSize(2_621_440)).toBe('2,50 MB');
    expect(formatSize(1024 ** 3)).toBe('1,00 GB');
    expect(formatSize(1.75 * 1024 ** 3)).toBe('1,75 GB');
  });

  it('stays in gigabytes above them and rounds to two decimals', () => {
    expect(formatSize(2048 * 1024 ** 3)).toBe('2048,00 GB');
    expect(formatSize(123_456)).toBe('120,56 KB');
  });
});
