import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { GalleryImage } from '../../lib/types.js';
import { nextSkip } from '../images/paging.js';
import { profileKeys } from './keys.js';

/** SPEC §9: profile galleries load 30 pictures at a time. */
export const PROFILE_PAGE_SIZE = 30;

interface UserImagesPage {
  images: GalleryImage[];
  hasMore: boolean;
}

/** GET /users/{id}/images: a user's approved pictures, newest first, paged by `hasMore`. */
export function fetchUserImages(
  userId: number,
  skip: number,
  signal?: AbortSignal,
): Promise<UserImagesPage> {
  return api<UserImagesPage>(`/users/${userId}/images?skip=${skip}&limit=${PROFILE_PAGE_SIZE}`, {
    signal,
  });
}

export const userImagesQuery = (userId: number) =>
  infiniteQueryOptions({
    queryKey: profileKeys.userImages(userId),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => fetchUserImages(userId, pageParam, signal),
    getNextPageParam: nextSkip,
  });

export function useUserImages(userId: number, enabled: boolean) {
  return useInfiniteQuery({ ...userImagesQuery(userId), enabled });
}
