import { describe, expect, it } from 'vitest';
import { nextTabIndex } from './tabKeys.js';

describe('nextTabIndex', () => {
  it('moves to the neighbour with the arrows, wrapping round at either end', () => {
    expect(nextTabIndex(0, 3, 'ArrowRight')).toBe(1);
    expect(nextTabIndex(2, 3, 'ArrowRight')).toBe(0);
    expect(nextTabIndex(1, 3, 'ArrowLeft')).toBe(0);
    expect(nextTabIndex(0, 3, 'ArrowLeft')).toBe(2);
  });

  it('goes to the first and the last with Home and End', () => {
    expect(nextTabIndex(1, 3, 'Home')).toBe(0);
    expect(nextTabIndex(1, 3, 'End')).toBe(2);
  });

  it('stays on a lone tab', () => {
    expect(nextTabIndex(0, 1, 'ArrowRight')).toBe(0);
    expect(nextTabIndex(0, 1, 'ArrowLeft')).toBe(0);
  });

  it('leaves every other key alone', () => {
    for (const key of ['ArrowUp', 'ArrowDown', 'Enter', ' ', 'Tab', 'a']) {
      expect(nextTabIndex(1, 3, key)).toBeNull();
    }
  });
});
