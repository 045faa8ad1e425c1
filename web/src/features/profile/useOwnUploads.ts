import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { GalleryImage } from '../../lib/types.js';
import { nextSkip } from '../images/paging.js';
import { profileKeys } from './keys.js';
import { PROFILE_PAGE_SIZE } from './useUserImages.js';

/** D4: 'pending', 'approved' or 'rejected'. */
export type ImageStatus = 'pending' | 'approved' | 'rejected';

export interface OwnImage extends GalleryImage {
  status: string;
  rejection_reason: string | null;
}

interface OwnUploadsPage {
  images: OwnImage[];
  total: number;
  /** Of all the uploads, not only this page's. */
  pending: number;
}

/** GET /users/me/images: the caller's own uploads of every status (D13), 30 at a time. */
export function fetchOwnUploads(skip: number, signal?: AbortSignal): Promise<OwnUploadsPage> {
  return api<OwnUploadsPage>(`/users/me/images?skip=${skip}&limit=${PROFILE_PAGE_SIZE}`, {
    signal,
  });
}

export const ownUploadsQuery = (viewerId: number) =>
  infiniteQueryOptions({
    queryKey: profileKeys.ownUploads(viewerId),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => fetchOwnUploads(pageParam, signal),
    getNextPageParam: nextSkip,
    // A moderator may decide at any moment: show the latest status whenever the tab opens.
    staleTime: 0,
  });

export function useOwnUploads(viewerId: number | null) {
  return useInfiniteQuery({ ...ownUploadsQuery(viewerId ?? 0), enabled: viewerId !== null });
}
