import { useImagePages } from '../images/useImagePages.js';

/** SPEC §9: related images load 120 at a time. */
export const RELATED_PAGE_SIZE = 120;

/** GET /images/{id}/related?skip&limit: most related first, never the image itself (D6). */
export const useRelatedImages = (id: number, enabled = true) =>
  useImagePages(`/images/${id}/related`, RELATED_PAGE_SIZE, enabled);
