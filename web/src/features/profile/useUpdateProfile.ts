import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { getToken, saveSession, saveUser, type SessionUser } from '../../lib/session.js';
import { IMAGE_QUERIES } from '../image-detail/image.js';

export interface ProfileChanges {
  username: string;
  email: string;
  /** Empty means unchanged (SPEC §5). */
  password: string;
  /** D3: needed when the e-mail or the password changes. */
  current_password: string;
}

/** The own user (D13), with a new token when the password changed: the old one is dead. */
type UpdateMeResponse = SessionUser & { access_token?: string };

/** PUT /users/me. */
export function updateMe(changes: ProfileChanges): Promise<UpdateMeResponse> {
  return api<UpdateMeResponse>('/users/me', { method: 'PUT', body: changes });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: ({ access_token, ...user }) => {
      if (access_token !== undefined) saveSession(access_token, user);
      else if (getToken() !== null) saveUser(user);
      // The username shows on the profile and under every picture the user uploaded: in the
      // galleries ('images') and on each picture's own page, which a visit earlier in the
      // session keeps for 30 seconds, so going back to it showed 'Caricata da' with the old name.
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      void queryClient.invalidateQueries({ queryKey: ['images'] });
      void queryClient.invalidateQueries({ queryKey: IMAGE_QUERIES });
    },
  });
}
