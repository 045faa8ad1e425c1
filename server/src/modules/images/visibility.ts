import type { ImageStatus, UserRow } from '../../db/tables.js';

/** Who looks at an image, as far as its visibility goes. */
export type Onlooker = Pick<UserRow, 'id_utente' | 'is_superuser'> | null;

/**
 * D4: a pending or rejected image exists only for its uploader and administrators. A module of
 * its own, free of services, because the views' thread (interactions/view-thread.ts) applies
 * the same rule away from the server's services.
 */
export function canSee(
  image: { status: ImageStatus; id_utente: number | null },
  viewer: Onlooker,
): boolean {
  return (
    image.status === 'approved' ||
    (viewer !== null && (viewer.id_utente === image.id_utente || viewer.is_superuser === 1))
  );
}
