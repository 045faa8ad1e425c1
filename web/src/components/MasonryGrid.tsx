import { Box, CircularProgress } from '@mui/material';
import { useEffect, useRef, useSyncExternalStore } from 'react';
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

  useEffect(() => {
    const target = sentinel.current;
    if (target === null || !hasMore || onLoadMore === undefined) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !loadingMore) onLoadMore();
      },
      { rootMargin: `${rootMargin}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, loadingMore, onLoadMore, rootMargin]);

  const lanes = layoutLanes(images, count);

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
