import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { ApiError, errorMessage, worthRetrying } from '../lib/api.js';
import type { ImagePage } from '../lib/types.js';
import type { ColumnRule } from './masonryColumns.js';
import { MasonryGrid } from './MasonryGrid.js';
import { EmptyMessage, ErrorMessage, Loading } from './StatusMessage.js';

/** SPEC §8 image lists: 401 'Token scaduto…'; otherwise the server's detail or the fallback. */
export function imageListError(
  error: unknown,
  fallback = 'Errore nel caricamento delle immagini',
): string {
  if (error instanceof ApiError && error.status === 401) return 'Token scaduto, effettua il logout';
  return errorMessage(error, fallback);
}

interface InfiniteGalleryProps {
  query: UseInfiniteQueryResult<InfiniteData<ImagePage>>;
  emptyText: string;
  /** Shown large above the empty text (the profile's tabs). */
  emptyIcon?: ReactNode;
  errorText?: string;
  columns?: ColumnRule;
  /** 2000px on galleries, 200px on search (SPEC §4). */
  rootMargin?: number;
}

/**
 * A paged gallery endpoint as a masonry grid that loads the next page as its end nears the
 * viewport, with the loading, error and empty states every gallery has.
 */
export function InfiniteGallery({
  query,
  emptyText,
  emptyIcon,
  errorText,
  columns,
  rootMargin,
}: InfiniteGalleryProps) {
  const images = useMemo(
    () => query.data?.pages.flatMap((page) => page.images) ?? [],
    [query.data],
  );
  const { fetchNextPage, refetch } = query;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  // After a failed page the sentinel asks no more (hasMore is off, or it would ask in a loop):
  // without a way to ask again the gallery stopped there until the page was reloaded.
  const retry = worthRetrying(0, query.error)
    ? () => void (query.isFetchNextPageError ? fetchNextPage() : refetch())
    : undefined;
  if (query.isPending && query.fetchStatus !== 'idle') return <Loading />;
  if (query.isError && images.length === 0)
    return <ErrorMessage message={imageListError(query.error, errorText)} onRetry={retry} />;
  if (images.length === 0) return <EmptyMessage message={emptyText} icon={emptyIcon} />;
  return (
    <>
      <MasonryGrid
        images={images}
        columns={columns}
        rootMargin={rootMargin}
        hasMore={query.hasNextPage && !query.isFetchNextPageError}
        loadingMore={query.isFetchingNextPage}
        onLoadMore={loadMore}
      />
      {query.isFetchNextPageError && (
        <ErrorMessage message={imageListError(query.error, errorText)} onRetry={retry} />
      )}
    </>
  );
}
