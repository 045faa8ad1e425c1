import { startTransition, useEffect, useState } from 'react';

/**
 * The first `batch` items of a list that arrives after the component has mounted, then `batch`
 * more after each commit, in background renders (transitions), until the whole list is drawn;
 * `complete` once it is.
 *
 * React never cuts a commit: the home page's twenty category sections, drawn at once when their
 * list arrived, made one of the longest tasks of a phone's page load, and the browser's style
 * and layout of all of them the next (goal 8: total blocking time). Added below what is already
 * on screen, the later batches move nothing the reader sees. A list already known when the
 * component mounts (back to a page, from React Query's cache) is drawn whole at once, so the
 * scroll position restored in that same commit finds the page at its full height; so is any
 * list that replaces one drawn whole (a refetch).
 */
export function useInBatches<T>(
  items: readonly T[] | undefined,
  batch: number,
): { items: T[] | undefined; complete: boolean } {
  const [count, setCount] = useState(() => (items === undefined ? 0 : Infinity));
  const shown = Math.max(count, batch);
  const arrived = items !== undefined;
  const length = items?.length ?? 0;
  useEffect(() => {
    if (!arrived || count === Infinity) return;
    startTransition(() => {
      setCount(shown < length ? shown + batch : Infinity);
    });
  }, [arrived, count, shown, length, batch]);
  return { items: items?.slice(0, shown), complete: arrived && shown >= length };
}
