import { Box, CircularProgress } from '@mui/material';
import {
  startTransition,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { GalleryImage } from '../lib/types.js';
import { ImageCard } from './ImageCard.js';
import { Loading } from './StatusMessage.js';
import { columnsFor, GALLERY_COLUMNS, placeCards, type ColumnRule } from './masonryColumns.js';

/**
 * The viewport's width, read when it changes rather than when React asks: reading
 * `window.innerWidth` makes the browser bring style and layout up to date first, and React
 * asks again right after committing (useSyncExternalStore's check), so every grid's commit
 * also laid out the whole new page in the same task (goal 8: 25 ms of the image page's longest
 * task on a desktop, four times as much on a phone).
 */
let viewportWidth = typeof window === 'undefined' ? 1200 : window.innerWidth;
const widthListeners = new Set<() => void>();
// Always listened to (one listener for the whole app), so the width is never stale.
if (typeof window !== 'undefined') {
  window.addEventListener('resize', () => {
    viewportWidth = window.innerWidth;
    for (const listener of widthListeners) listener();
  });
}

function subscribeToWidth(listener: () => void): () => void {
  widthListeners.add(listener);
  return () => widthListeners.delete(listener);
}

function useColumns(rule: ColumnRule): number {
  const width = useSyncExternalStore(
    subscribeToWidth,
    () => viewportWidth,
    () => 1200,
  );
  return columnsFor(rule, width);
}

/** The space between cards, across and down (theme spacing 1.5). */
const GAP_PX = 12;
/**
 * Cards drawn at first, and added each time the end of the grid comes near: a page of 120 drawn
 * at once was one long task (goal 8: the image page's related pictures, 150–270 ms of blocking
 * time on desktop). The lanes deal each card to the shortest lane so far, so the cards drawn
 * later go below the ones already there: nothing moves.
 */
const FIRST_CARDS = 24;
const MORE_CARDS = 24;
/** What the grid draws before its first cards: nothing, until they are ready to commit. */
const NO_IMAGES: GalleryImage[] = [];

interface MasonryGridProps {
  images: GalleryImage[];
  columns?: ColumnRule;
  hasMore?: boolean;
  loadingMore?: boolean;
  onLoadMore?: () => void;
  /** How early the next page loads: 2000px on galleries, 200px on search (SPEC §4). */
  rootMargin?: number;
}

/**
 * Images in columns, each placed in the shortest column so far (by aspect ratio), in the
 * document in their own order, and a sentinel that asks for the next page when it comes near the viewport.
 */
export function MasonryGrid({
  images,
  columns = GALLERY_COLUMNS,
  hasMore = false,
  loadingMore = false,
  onLoadMore,
  rootMargin = 2000,
}: MasonryGridProps) {
  const count = useColumns(columns);
  const sentinel = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(FIRST_CARDS);
  // The cards are drawn in a background render, which React cuts into slices of a few
  // milliseconds, instead of in the render the query's answer triggers: React Query's updates
  // are never cut (useSyncExternalStore), and drawing two dozen cards with their ThumbHash
  // previews there was the longest task of the image page on a phone (goal 8: blocking time).
  const drawn = useDeferredValue(images, NO_IMAGES);
  const drawing = drawn !== images;
  const moreToShow = drawn.length > shown;

  useEffect(() => {
    const target = sentinel.current;
    // While the cards are still being drawn, the end of the grid is not where it will be.
    if (drawing) return;
    if (target === null || (!moreToShow && (!hasMore || onLoadMore === undefined))) return;
    // Made anew after each batch (`shown`): a new observer reports at once whether the end is
    // still near, so batches follow one another, each in a task of its own, until it is not.
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        // A background render too, in slices, for the same reason as above.
        if (moreToShow) startTransition(() => setShown((before) => before + MORE_CARDS));
        else if (!loadingMore) onLoadMore?.();
      },
      { rootMargin: `${rootMargin}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [drawing, moreToShow, shown, hasMore, loadingMore, onLoadMore, rootMargin]);

  // Until the first cards are drawn, the same spinner as while their page was on its way.
  if (drawn.length === 0 && images.length > 0) return <Loading />;
  const { cards, lanes } = placeCards(moreToShow ? drawn.slice(0, shown) : drawn, count);
  // A lane's width, from the grid's own (a container: 100cqi), so that every place below is
  // CSS the browser works out, at any width, with nothing measured by script.
  const lane = `((100cqi - ${String((count - 1) * GAP_PX)}px) / ${String(count)})`;
  const bottom = (height: number, before: number) =>
    `calc(${String(height)} * ${lane} + ${String(before * GAP_PX)}px)`;

  return (
    <>
      <Box sx={{ containerType: 'inline-size' }}>
        <Box
          sx={{ position: 'relative' }}
          style={{
            height: `max(${lanes.map((l) => bottom(l.height, Math.max(0, l.cards - 1))).join(', ')})`,
          }}
        >
          {/* The cards in the gallery's order (the focus and a screen reader go from one to the
              next as the gallery lists them, row after row), each placed in its lane: in lanes
              of their own, a keyboard went down the whole first column, which on an endless
              gallery never ends, before reaching the second. */}
          {cards.map(({ item, lane: index, above, before }) => (
            <div
              key={item.id_image}
              style={{
                position: 'absolute',
                width: `calc(${lane})`,
                left: `calc(${String(index)} * (${lane} + ${String(GAP_PX)}px))`,
                top: bottom(above, before),
              }}
            >
              <ImageCard image={item} eager={before === 0} />
            </div>
          ))}
        </Box>
      </Box>
      <Box ref={sentinel} sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
        {loadingMore && <CircularProgress size={28} aria-label="Caricamento" />}
      </Box>
    </>
  );
}
