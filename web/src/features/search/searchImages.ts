import { useImagePages } from '../images/useImagePages.js';

/** SPEC §9: search results load 120 at a time. */
export const SEARCH_PAGE_SIZE = 120;

/** GET /search?query&skip&limit, best matches first (D6); nothing is asked for a blank query. */
export const useSearchImages = (query: string) =>
  useImagePages(
    `/search?query=${encodeURIComponent(query)}`,
    SEARCH_PAGE_SIZE,
    query.trim() !== '',
  );
