import { Box, CircularProgress } from '@mui/material';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { GalleryImage } from '../lib/types.js';
import { ImageCard } from './ImageCard.js';
import { columnsFor, GALLERY_COLUMNS, layoutLanes, type ColumnRule } from './masonryColumns.js';

function subscribeToWidth(listener: () => void): () => void {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
}

function useColumns(rule: ColumnRule): number {
  const width = useSyncExternalStore(
    subscribeToWidth,
    () => window.innerWidth,
    () => 1200,
  );
  return columnsFor(rule, width);
}

/**
 * Cards drawn at first, and added each time the end of the grid comes near: a page of 120 drawn
 * at once was one long task (goal 8: the image page's related pictures, 150–270 ms of blocking
 * time on desktop). The lanes deal each card to the shortest lane so far, so the cards drawn
 * later go below the ones already there: nothing moves.
 */
const FIRST_CARDS = 24;
const MORE_CARDS = 24;

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
 * Images in columns, each placed in the shortest column so far (by aspect ratio), and a
 * sentinel that asks for the next page when it comes near the viewport.
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
  const moreToShow = images.length > shown;

  useEffect(() => {
    const target = sentinel.current;
    if (target === null || (!moreToShow && (!hasMore || onLoadMore === undefined))) return;
    // Made anew after each batch (`shown`): a new observer reports at once whether the end is
    // still near, so batches follow one another, each in a task of its own, until it is not.
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        if (moreToShow) setShown((drawn) => drawn + MORE_CARDS);
        else if (!loadingMore) onLoadMore?.();
      },
      { rootMargin: `${rootMargin}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [moreToShow, shown, hasMore, loadingMore, onLoadMore, rootMargin]);

  const lanes = layoutLanes(moreToShow ? images.slice(0, shown) : images, count);

  return (
    <>
      <Box
        sx={{ display: 'grid', gridTemplateColumns: `repeat(${count}, minmax(0, 1fr))`, gap: 1.5 }}
      >
        {lanes.map((lane, index) => (
          <Box key={index} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            {lane.map((image, position) => (
              <ImageCard key={image.id_image} image={image} eager={position === 0} />
            ))}
          </Box>
        ))}
      </Box>
      <Box ref={sentinel} sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
        {loadingMore && <CircularProgress size={28} aria-label="Caricamento" />}
      </Box>
    </>
  );
}
