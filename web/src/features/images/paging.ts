/**
 * A page of a paged list as the API answers it: `total` (galleries) or `hasMore` (profiles),
 * and `next_cursor` from the galleries that continue by cursor (null on the last page).
 */
export interface Paged {
  images: readonly unknown[];
  total?: number;
  hasMore?: boolean;
  next_cursor?: string | null;
}

/** Where the next page starts: a cursor from the server, or a `skip` counted here. */
export type PageParam = number | string;

/**
 * The `skip` of the next page, or undefined when the list is complete (SPEC §4): while the
 * server says `hasMore`, or until the loaded count reaches `total`. An empty page ends the
 * list too, so a total that shrank meanwhile cannot make it ask for ever.
 */
export function nextSkip(last: Paged, pages: readonly Paged[]): number | undefined {
  const loaded = pages.reduce((sum, page) => sum + page.images.length, 0);
  if (last.hasMore !== undefined) return last.hasMore ? loaded : undefined;
  return last.total !== undefined && loaded < last.total && last.images.length > 0
    ? loaded
    : undefined;
}

/**
 * The next page of a list: the server's cursor when it hands one out (galleries: as fast on
 * page 8,000 as on page 1, and no image is skipped or repeated when new ones are approved
 * while scrolling), otherwise the loaded count as `skip` (search, related images).
 */
export function nextPageParam(last: Paged, pages: readonly Paged[]): PageParam | undefined {
  if (last.next_cursor !== undefined) return last.next_cursor ?? undefined;
  return nextSkip(last, pages);
}

/** The query parameter a page param becomes. */
export function pageParamQuery(param: PageParam): string {
  return typeof param === 'string' ? `cursor=${encodeURIComponent(param)}` : `skip=${param}`;
}
