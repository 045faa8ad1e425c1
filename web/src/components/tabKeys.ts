/**
 * Where a key moves the focus in a row of `count` tabs from tab `current` (WAI-ARIA's tabs
 * pattern): the arrows to the neighbour, wrapping round at either end, Home and End to the first
 * and the last; null for any other key, which the tab list leaves alone.
 */
export function nextTabIndex(current: number, count: number, key: string): number | null {
  switch (key) {
    case 'ArrowRight':
      return (current + 1) % count;
    case 'ArrowLeft':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
