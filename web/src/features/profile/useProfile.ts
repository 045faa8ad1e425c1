import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { profileKeys } from './keys.js';

/** GET /users/{id|me}/profile: the public face of a user, never the e-mail (SPEC §3, D3). */
export interface PublicProfile {
  user: {
    id_utente: number;
    username: string;
    created_at: string;
    followers_count: number;
    stats: { total_images: number; total_likes: number };
  };
  is_following: boolean;
}

export function fetchProfile(ref: string, signal?: AbortSignal): Promise<PublicProfile> {
  return api<PublicProfile>(`/users/${ref}/profile`, { signal });
}

export const profileQuery = (ref: string, viewerId: number | null) =>
  queryOptions({
    queryKey: profileKeys.profile(ref, viewerId),
    queryFn: ({ signal }) => fetchProfile(ref, signal),
  });

export function useProfile(ref: string, viewerId: number | null, enabled: boolean) {
  return useQuery({ ...profileQuery(ref, viewerId), enabled });
}
