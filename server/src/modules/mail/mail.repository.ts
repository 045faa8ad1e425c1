import type { Executor } from '../../db/executor.js';

/** Who hears about a moderation decision, and about which image (D4, D8). */
export interface DecisionRecipient {
  id_image: number;
  titolo_img: string | null;
  id_utente: number;
  email: string;
  username: string;
  is_active: 0 | 1;
  deletion_requested_at: string | null;
}

/** Read through the decision's own transaction, so the e-mail matches what was decided. */
export function findDecisionRecipient(
  db: Executor,
  id_image: number,
): Promise<DecisionRecipient | undefined> {
  return db
    .selectFrom('images')
    .innerJoin('users', 'users.id_utente', 'images.id_utente')
    .select([
      'images.id_image',
      'images.titolo_img',
      'users.id_utente',
      'users.email',
      'users.username',
      'users.is_active',
      'users.deletion_requested_at',
    ])
    .where('images.id_image', '=', id_image)
    .executeTakeFirst();
}
