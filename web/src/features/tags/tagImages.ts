import { useImagePages } from '../images/useImagePages.js';

/** SPEC §9: galleries load 120 at a time. */
export const TAG_PAGE_SIZE = 120;

/** GET /tags/{id}/images?skip&limit, page after page. */
export const useTagImages = (id: number, enabled = true) =>
  useImagePages(`/tags/${id}/images`, TAG_PAGE_SIZE, enabled);
