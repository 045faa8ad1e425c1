import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { profileKeys } from './keys.js';
import type { PublicProfile } from './useProfile.js';

/** D13: both calls answer the new state; the count shown is the server's (SPEC §4). */
export interface FollowState {
  is_following: boolean;
  followers_count: number;
}

/** POST /users/{id}/follow or DELETE /users/{id}/unfollow. */
export function setFollowing(userId: number, follow: boolean): Promise<FollowState> {
  return follow
    ? api<FollowState>(`/users/${userId}/follow`, { method: 'POST' })
    : api<FollowState>(`/users/${userId}/unfollow`, { method: 'DELETE' });
}

export function useFollow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, follow }: { userId: number; follow: boolean }) =>
      setFollowing(userId, follow),
    onSuccess: (state, { userId }) => {
      // Every cached copy of that profile (by id or as 'me') takes the server's answer.
      queryClient.setQueriesData<PublicProfile>({ queryKey: profileKeys.allProfiles }, (old) =>
        old?.user.id_utente === userId
          ? {
              ...old,
              is_following: state.is_following,
              user: { ...old.user, followers_count: state.followers_count },
            }
          : old,
      );
    },
  });
}
