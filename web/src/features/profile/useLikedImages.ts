import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { GalleryImage } from '../../lib/types.js';
import { nextSkip } from '../images/paging.js';
import { profileKeys } from './keys.js';

/** SPEC §7, §9: the liked list pages like the galleries, 120 at a time. */
const LIKED_PAGE_SIZE = 120;

interface LikedPage {
  images: GalleryImage[];
  total: number;
}

/** GET /users/me/liked-images: likes are private, so only the own list exists (D5). */
export function fetchLikedImages(skip: number, signal?: AbortSignal): Promise<LikedPage> {
  return api<LikedPage>(`/users/me/liked-images?skip=${skip}&limit=${LIKED_PAGE_SIZE}`, {
    signal,
  });
}

export const likedImagesQuery = (viewerId: number) =>
  infiniteQueryOptions({
    queryKey: profileKeys.liked(viewerId),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => fetchLikedImages(pageParam, signal),
    getNextPageParam: nextSkip,
    // A like given on an image page a moment ago must already be here.
    staleTime: 0,
  });

export function useLikedImages(viewerId: number | null) {
  return useInfiniteQuery({ ...likedImagesQuery(viewerId ?? 0), enabled: viewerId !== null });
}
