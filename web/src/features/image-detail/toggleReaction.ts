import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { ImageDetail } from '../../lib/types.js';
import { imageQueryKey } from './image.js';

type CountField = 'likes_count' | 'favorites_count' | 'sad_count' | 'dislikes_count' | 'wow_count';

export interface Reaction {
  /** id_tipo_interazione (SPEC §3). */
  type: 1 | 2 | 4 | 5 | 6;
  /** The accessible name of its button (D14). */
  label: string;
  count: CountField;
  /** SPEC §8: shown when the server sends no detail. */
  failure: string;
}

/** The five toggles of SPEC §4, in the order the page shows them. */
export const REACTIONS: readonly Reaction[] = [
  { type: 1, label: 'Mi piace', count: 'likes_count', failure: 'Errore durante il like' },
  {
    type: 2,
    label: 'Preferiti',
    count: 'favorites_count',
    failure: 'Errore durante il salvataggio nei preferiti',
  },
  { type: 4, label: 'Triste', count: 'sad_count', failure: 'Errore durante la reazione triste' },
  {
    type: 5,
    label: 'Non mi piace',
    count: 'dislikes_count',
    failure: 'Errore durante il non mi piace',
  },
  { type: 6, label: 'Wow', count: 'wow_count', failure: 'Errore durante la reazione wow' },
];

export interface ToggleInput {
  imageId: number;
  userId: number;
  reaction: Reaction;
}

/** POST /images/{id}/interactions {id_tipo_interazione}: toggles, answers 'added' or 'removed'. */
export function toggleReaction({ imageId, reaction }: ToggleInput): Promise<{ action: string }> {
  return api(`/images/${imageId}/interactions`, {
    method: 'POST',
    body: { id_tipo_interazione: reaction.type },
  });
}

/**
 * SPEC §4: 'added' raises the counter, any other answer lowers it, never below 0. The pressed
 * state follows the viewer's own interactions, kept in the same cached image.
 */
export function useToggleReaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleReaction,
    onSuccess: ({ action }, { imageId, userId, reaction }) => {
      const added = action === 'added';
      queryClient.setQueryData<ImageDetail>(imageQueryKey(imageId, userId), (image) => {
        if (image === undefined) return image;
        const others = image.interactions.filter(
          (own) => own.id_tipo_interazione !== reaction.type,
        );
        return {
          ...image,
          [reaction.count]: Math.max(0, image[reaction.count] + (added ? 1 : -1)),
          interactions: added
            ? [...others, { id_tipo_interazione: reaction.type, id_utente: userId }]
            : others,
        };
      });
      // Galleries carry counts and own reactions too, and the liked list changes with a like:
      // marked stale, they reload the next time they are shown rather than under the reader.
      void queryClient.invalidateQueries({ queryKey: ['images'], refetchType: 'none' });
      // A like also changes the uploader's 'total_likes' on their profile.
      void queryClient.invalidateQueries({ queryKey: ['users', 'profile'], refetchType: 'none' });
    },
  });
}
