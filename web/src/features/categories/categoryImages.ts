import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { ImagePage } from '../../lib/types.js';
import { useImagePages } from '../images/useImagePages.js';

/** SPEC §9: galleries load 120 at a time; a category carousel on home shows 50. */
export const CATEGORY_PAGE_SIZE = 120;
export const CATEGORY_CAROUSEL_SIZE = 50;

const path = (id: number) => `/categories/${id}/images`;

/** GET /categories/{id}/images?skip&limit, page after page (the category page). */
export const useCategoryImages = (id: number, enabled = true) =>
  useImagePages(path(id), CATEGORY_PAGE_SIZE, enabled);

/** The first 50 images of a category, for its carousel on home. */
export const categoryCarouselQuery = (id: number) =>
  queryOptions({
    queryKey: ['images', path(id), 'carousel', CATEGORY_CAROUSEL_SIZE],
    queryFn: ({ signal }) =>
      api<ImagePage>(`${path(id)}?limit=${CATEGORY_CAROUSEL_SIZE}`, { signal }),
  });

export const useCategoryCarousel = (id: number, enabled: boolean) =>
  useQuery({ ...categoryCarouselQuery(id), enabled });
