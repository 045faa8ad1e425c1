import type { QueryClient } from '@tanstack/react-query';
import { imageQuery, imageQueryKey } from '../features/image-detail/image.js';
import { toTrending, trendingQuery } from '../features/images/trendingImages.js';
import { parseRouteId } from '../lib/routeId.js';
import { getUser } from '../lib/session.js';
import type { ImageDetail } from '../lib/types.js';

/** The API answer the server drew the first screen from (server/src/plugins/first-screen.ts). */
interface Embedded {
  path?: unknown;
  trending?: unknown;
  image?: unknown;
}

function parseEmbedded(text: string | null): Embedded | null {
  if (text === null || text === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/**
 * The data the first screen shows, before React and the page's chunk have run. The server
 * sends it with index.html (the same answer the API gives an anonymous visitor), so the first
 * render draws the picture the server's static first screen already shows, and no request is
 * made; otherwise it is asked for at once, and the answer is on its way while the scripts run
 * (goal 8). The pages read the same queries.
 *
 * Resolves when that data is there (or has failed: the page shows the failure), so the first
 * render can wait for it instead of replacing the server's picture with a spinner.
 */
export function prefetchFirstScreen(
  queryClient: QueryClient,
  pathname: string,
  embeddedText: string | null = null,
): Promise<void> {
  // A failure is the page's to show, from the query's state: nothing to do with it here.
  const ignore = () => undefined;
  const embedded = parseEmbedded(embeddedText);
  const fromServer = embedded?.path === pathname ? embedded : null;
  if (pathname === '/') {
    if (fromServer?.trending !== undefined) {
      try {
        queryClient.setQueryData(trendingQuery.queryKey, toTrending(fromServer.trending));
        return Promise.resolve();
      } catch {
        // An answer the page could not show: let it ask, and say what went wrong.
      }
    }
    return queryClient.query(trendingQuery).then(ignore, ignore);
  }
  const image = /^\/image\/([^/]+)$/.exec(pathname);
  const id = parseRouteId(image?.[1]);
  if (id === null) return Promise.resolve();
  // Keyed by viewer as ImagePage asks for it: the answer carries the viewer's own reactions,
  // so the server's anonymous answer is only good for an anonymous visitor.
  const viewerId = getUser()?.id_utente ?? null;
  const sent = fromServer?.image as ImageDetail | undefined;
  if (viewerId === null && sent?.id_image === id) {
    queryClient.setQueryData(imageQueryKey(id, null), sent);
    return Promise.resolve();
  }
  return queryClient.query(imageQuery(id, viewerId)).then(ignore, ignore);
}
