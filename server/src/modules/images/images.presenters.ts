import type { FileUrls } from './file-urls.js';
import { isUsable } from '../users/users.service.js';
import type { ImageRow } from './images.repository.js';

export interface ImageExtras {
  tags: Array<{ id_tag: number; nome: string }>;
  interactions: Array<{ id_tipo_interazione: number; id_utente: number }>;
  urls: FileUrls;
}

/** Exactly the fields of GalleryImage. */
export function toGalleryImage(row: ImageRow, extras: ImageExtras) {
  return {
    id_image: row.id_image,
    filename: row.filename,
    titolo_img: row.titolo_img,
    // Public with the picture itself; a picture still under review keeps its words to itself.
    extracted_text: row.status === 'approved' ? row.extracted_text : null,
    id_utente: row.id_utente,
    username_uploader: row.username,
    category: { id_categoria: row.id_categoria, nome: row.categoria_nome },
    tags: extras.tags,
    interactions: extras.interactions,
    likes_count: row.likes_count,
    views_count: row.views_count,
    shares_count: row.downloads_count,
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    ...extras.urls,
    created_at: row.created_at,
    published_at: row.published_at,
  };
}

export function toImageDetail(row: ImageRow, extras: ImageExtras) {
  return {
    ...toGalleryImage(row, extras),
    description: row.description,
    status: row.status,
    // A deactivated account's pictures stay public while its profile is hidden (404): the
    // page names the author without a link that would lead nowhere.
    uploader_visible: isUsable({
      is_active: row.uploader_is_active,
      deletion_requested_at: row.uploader_deletion_requested_at,
    }),
    favorites_count: row.favorites_count,
    downloads_count: row.downloads_count,
    sad_count: row.sad_count,
    dislikes_count: row.dislikes_count,
    wow_count: row.wow_count,
  };
}

export function toOwnImage(row: ImageRow, extras: ImageExtras) {
  return {
    ...toGalleryImage(row, extras),
    status: row.status,
    rejection_reason: row.rejection_reason,
  };
}
