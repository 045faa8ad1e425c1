import type { QueryClient } from '@tanstack/react-query';
import { imageQuery } from '../features/image-detail/image.js';
import { trendingQuery } from '../features/images/trendingImages.js';
import { parseRouteId } from '../lib/routeId.js';
import { getUser } from '../lib/session.js';

/**
 * Asks for the data the first screen shows before React and the page's chunk have run, so the
 * answer is on its way while they do (goal 8: the LCP picture waits for it). The pages ask for
 * the same queries; the cache hands them this request instead of a second one.
 */
export function prefetchFirstScreen(queryClient: QueryClient, pathname: string): void {
  // A failure is the page's to show, from the query's state: nothing to do with it here.
  const ignore = () => undefined;
  if (pathname === '/') {
    queryClient.query(trendingQuery).catch(ignore);
    return;
  }
  const image = /^\/image\/([^/]+)$/.exec(pathname);
  const id = parseRouteId(image?.[1]);
  // Keyed by viewer as ImagePage asks for it: the answer carries the viewer's own reactions.
  if (id !== null) queryClient.query(imageQuery(id, getUser()?.id_utente ?? null)).catch(ignore);
}
